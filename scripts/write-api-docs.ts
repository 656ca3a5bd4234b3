// `npm run openapi`: writes the console's API description (docs/openapi.json) and the problem
// types' explanations (docs/problems.md) from the code. api-description.test.ts and
// problem-pages.test.ts fail when the committed files differ from what this writes.
import { writeFileSync } from 'node:fs';
import { generatedApiDocs } from '../src/server/api-description/generated-docs';

for (const file of await generatedApiDocs()) {
  writeFileSync(file.path, file.text);
  console.log(`wrote ${file.path}`);
}
