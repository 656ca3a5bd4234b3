// docs/problems.md, written from the explanations table (`npm run openapi` writes it; a test keeps
// the committed copy current). Each type's slug is its heading, so `problems.md#<slug>` is an
// anchor for every `type` URI.
import { explainedProblemTypes } from './problem-explanations';

/** The text of docs/problems.md. */
export function problemsMarkdown(): string {
  const sections = explainedProblemTypes().map(({ type, slug, explanation }) =>
    [
      `## ${slug}`,
      `\`${type}\` · ${explanation.status} · ${explanation.title}`,
      `**What happened.** ${explanation.happened}`,
      `**What to do.** ${explanation.todo}`,
    ].join('\n\n'),
  );
  return [
    '# Problem types',
    '<!-- Written by `npm run openapi` from src/server/problem-pages/problem-explanations.ts: edit that file, not this one. -->',
    'Every failure answer of the console’s API is `application/problem+json` (RFC 9457). Its `type` is a relative URI such as `/problems/signed-out` that never changes once published: programs switch on it, people read `title` and `detail`. Opened on the console (for example `http://127.0.0.1:8787/problems/signed-out`), each `type` shows the explanation below, without signing in; `/problems` lists them all. The API description, [openapi.json](openapi.json), names the types each operation answers with.',
    ...sections,
  ].join('\n\n');
}
