// GET /problems and /problems/<slug>: where a problem's `type` URI leads. A plain page, no sign-in,
// nothing personal: the same explanation for everyone, from the one table (problem-explanations.ts).
import { Hono, type Context } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../http/app-env';
import { problemResponse } from '../http/problem';
import { explainedProblemTypes, type ProblemExplanation } from './problem-explanations';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Escaped text with the explanations' `code` spans as <code>. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/**
 * The pages' look: the console's type, colours and measure (src/app/styles.css), as a file of its
 * own, since the console's content security policy allows no inline style.
 */
const STYLESHEET_FILE = 'problems.css';
const STYLESHEET = `body {
  margin: 0;
  background: #f6f7f9;
  color: #1b1f24;
  font: 16px/1.55 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
}
main {
  max-width: 44rem;
  margin: 2.5rem auto;
  padding: 1.5rem 2rem;
  background: #fff;
  border: 1px solid #d9dde3;
  border-radius: 8px;
}
h1 {
  font-size: 1.6rem;
  line-height: 1.25;
  margin: 0 0 0.5rem;
}
h2 {
  font-size: 1.1rem;
  margin: 1.5rem 0 0.25rem;
}
code {
  font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace;
  font-size: 0.9em;
  overflow-wrap: anywhere;
}
a {
  color: #1f4fd1;
}
li + li {
  margin-top: 0.35rem;
}
@media (max-width: 640px) {
  main {
    margin: 0;
    border: 0;
    border-radius: 0;
    padding: 1rem;
  }
}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Privacy API Console</title><link rel="stylesheet" href="/problems/${STYLESHEET_FILE}"></head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function explanationPage(type: string, explanation: ProblemExplanation): string {
  return page(
    explanation.title,
    `<h1>${escapeHtml(explanation.title)}</h1>
<p><code>${escapeHtml(type)}</code> · HTTP ${escapeHtml(explanation.status)}</p>
<h2>What happened</h2>
<p>${inline(explanation.happened)}</p>
<h2>What to do</h2>
<p>${inline(explanation.todo)}</p>
<p><a href="/problems">Every problem type</a> · <a href="/">Back to the console</a></p>`,
  );
}

function indexPage(): string {
  const items = explainedProblemTypes()
    .map(
      ({ type, explanation }) =>
        `<li><a href="${escapeHtml(type)}"><code>${escapeHtml(type)}</code></a>: ${escapeHtml(explanation.title)}</li>`,
    )
    .join('\n');
  return page(
    'Problem types',
    `<h1>Problem types</h1>
<p>Every failure answer of the console’s API is <code>application/problem+json</code>; its <code>type</code> leads here.</p>
<ul>
${items}
</ul>`,
  );
}

/** The problem pages, mounted at /problems (outside /api: no session, no X-CSRF). */
export function problemPagesRoutes() {
  const pages = new Map(
    explainedProblemTypes().map(({ type, slug, explanation }) => [
      slug,
      explanationPage(type, explanation),
    ]),
  );
  const index = indexPage();
  return (
    new Hono<AppEnv>()
      .get('/', (c) => c.html(index))
      .get(`/${STYLESHEET_FILE}`, (c) =>
        c.body(STYLESHEET, 200, {
          'Content-Type': 'text/css; charset=utf-8',
          'Cache-Control': 'public, max-age=3600',
        }),
      )
      .get('/:slug', (c) => {
        const html = pages.get(c.req.param('slug'));
        return html ? c.html(html) : noSuchType(c);
      })
      // Anything else under /problems (`/problems/`, `/problems/a/b`, a known type with a trailing
      // slash): a problem type's URI is exactly `/problems/<slug>`, and the app's page there would
      // read as one.
      .all('*', noSuchType)
  );
}

/** The 404 for a path under /problems that is no problem type's page. */
function noSuchType(c: Context<AppEnv>) {
  return problemResponse(c, {
    type: PROBLEM_TYPES.notFound,
    title: 'No such problem type',
    status: 404,
    detail: 'The console answers with no problem of this type; /problems lists them all.',
  });
}
