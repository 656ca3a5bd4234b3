// Writes the reporter package's template list (packages/reporter/src/templates.ts) from the
// console's one table of platform operations (src/shared/operation-templates.ts), so the package
// recognises exactly the operations the console does while staying free of any dependency on it.
// `npm run reporter-templates` runs it at the repository's root, where the console's sources are;
// the package's own build needs only TypeScript, so `npm pack` works in the package alone.
// write-reporter-templates.test.ts fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPERATION_TEMPLATES } from '../src/shared/operation-templates';

/** The generated file's path. */
export const REPORTER_TEMPLATES_FILE = fileURLToPath(
  new URL('../packages/reporter/src/templates.ts', import.meta.url),
);

/** The file's text. */
export function reporterTemplatesSource(): string {
  const rows = OPERATION_TEMPLATES.map(
    ({ method, template }) => `  [${JSON.stringify(method)}, ${JSON.stringify(template)}],`,
  );
  return [
    '// Generated from the console’s table of platform operations by',
    '// scripts/write-reporter-templates.ts (`npm run reporter-templates`): do not edit by hand.',
    '// A request path is reduced to one of these before it is counted, so no concrete path value is',
    '// ever kept or sent.',
    '',
    '/** Method and documented path template; `{name}` matches one segment, a trailing `*` more. */',
    'export const TEMPLATES: ReadonlyArray<readonly [method: string, template: string]> = [',
    ...rows.map((row) => row.replaceAll('"', "'")),
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(REPORTER_TEMPLATES_FILE, reporterTemplatesSource());
  console.log(`wrote ${REPORTER_TEMPLATES_FILE}`);
}
