// The documentation files generated from the code, formatted as the repository keeps them: the
// writer (`npm run openapi`) and the tests that keep the committed copies current share this.
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { API_MODULES } from './api-modules';
import { buildOpenApiDocument } from './openapi-document';
import { problemsMarkdown } from '../problem-pages/problems-markdown';

/** A generated file: its absolute path and its text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

const docsFile = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

/** `text` as `npm run format` would leave the file at `path`. */
async function formatted(path: string, text: string): Promise<GeneratedFile> {
  return { path, text: await format(text, { ...(await resolveConfig(path)), filepath: path }) };
}

/** docs/openapi.json and docs/problems.md as the code says they must read. */
export async function generatedApiDocs(): Promise<GeneratedFile[]> {
  return Promise.all([
    formatted(docsFile('openapi.json'), JSON.stringify(buildOpenApiDocument(API_MODULES))),
    formatted(docsFile('problems.md'), problemsMarkdown()),
  ]);
}
