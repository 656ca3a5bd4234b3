// Writes docs/platform-openapi.json, the console's description of the platform operations it calls,
// from the zod contract (`npm run openapi:platform`). A test fails while the committed file differs
// from a fresh generation, so the file and the contract cannot drift.
import { writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { platformOpenApi } from '../src/shared/platform-openapi';

/** Where the description is committed. */
export const PLATFORM_OPENAPI_FILE = 'docs/platform-openapi.json';

/** The file's text: the description as Prettier formats JSON, so `npm run lint` accepts it. */
export async function platformOpenApiText(): Promise<string> {
  return format(JSON.stringify(platformOpenApi()), { parser: 'json' });
}

if (process.argv[1]?.endsWith('generate-platform-openapi.ts')) {
  writeFileSync(PLATFORM_OPENAPI_FILE, await platformOpenApiText());
  console.log(`wrote ${PLATFORM_OPENAPI_FILE}`);
}
