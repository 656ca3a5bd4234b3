// The committed description of the platform (docs/platform-openapi.json) is what the zod contract
// generates now: change the contract without `npm run openapi:platform` and this fails, so the file
// Prism checks the mock against cannot drift from the schemas the console parses with.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLATFORM_OPENAPI_FILE, platformOpenApiText } from './generate-platform-openapi';

describe(PLATFORM_OPENAPI_FILE, () => {
  it('is what the contract generates (run `npm run openapi:platform` after changing it)', async () => {
    expect(readFileSync(PLATFORM_OPENAPI_FILE, 'utf8')).toBe(await platformOpenApiText());
  });

  it('describes every field without null: the platform never sends one, the documents say', () => {
    expect(readFileSync(PLATFORM_OPENAPI_FILE, 'utf8')).not.toMatch(/"null"/);
  });
});
