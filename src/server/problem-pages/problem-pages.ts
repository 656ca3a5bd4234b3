// GET /problems and /problems/<slug>: where a problem's `type` URI leads. A plain page, no sign-in,
// nothing personal: the same explanation for everyone, from the one table (problem-explanations.ts).
import { Hono } from 'hono';
import { PROBLEM_TYPES } from '../../shared/problem';
import type { AppEnv } from '../app-env';
import { problemResponse } from '../problem';
import { explainedProblemTypes, type ProblemExplanation } from './problem-explanations';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Escaped text with the explanations' `code` spans as <code>. */
function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Privacy API Console</title></head>
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
  return new Hono<AppEnv>()
    .get('/', (c) => c.html(index))
    .get('/:slug', (c) => {
      const html = pages.get(c.req.param('slug'));
      if (html) return c.html(html);
      return problemResponse(c, {
        type: PROBLEM_TYPES.notFound,
        title: 'No such problem type',
        status: 404,
        detail: 'The console answers with no problem of this type; /problems lists them all.',
      });
    });
}
