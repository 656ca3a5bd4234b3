// The reporter package ships the console's template list as generated at its build: the
// committed copy must be what the generator writes now, or an integration's reports would be
// reduced differently from what the console expects.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORTER_TEMPLATES_FILE, reporterTemplatesSource } from './write-reporter-templates';

describe('the reporter package’s template list', () => {
  it('is what the table of platform operations generates (run `npm run build` in packages/reporter after changing it)', () => {
    expect(readFileSync(REPORTER_TEMPLATES_FILE, 'utf8')).toBe(reporterTemplatesSource());
  });
});
