// "Who saw this person's data?" as a privacy admin answers it: after single lookups and a listing
// read page by page ("load more"), a search on the audit page for the demo identifier, typed in
// another case, finds every single lookup and every listing page that displayed her, and only
// those; the chain can be verified from the page, and a search exports as CSV with a signature
// that the repository's verifier accepts.
import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures';
import { E2E_PURPOSE } from './lookup-purpose';

const ADA = 'ada.lovelace@example.com';
const E2E_AUDIT_KEY = 'e2e-audit-key-not-for-any-real-deployment-0123';

interface Lookup {
  operation: string;
  params?: Record<string, string>;
  continuation?: string;
}

/**
 * A lookup through the BFF from the signed-in page: whether its answer displayed Ada, and the
 * identifiers it displayed.
 */
async function lookUp(page: Page, body: Lookup) {
  return page.evaluate(
    async ({ request, purpose }) => {
      const response = await fetch('/api/data-subjects/lookups', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
        body: JSON.stringify({ purpose, ...request }),
      });
      const answer = (await response.json()) as { data?: unknown; continuation?: string };
      const text = JSON.stringify(answer.data ?? null).toLowerCase();
      const identifiers = [...text.matchAll(/"identifier":"([^"]+)"/g)].map((match) => match[1]!);
      return {
        status: response.status,
        showedAda: text.includes('ada.lovelace@example.com'),
        identifiers,
        continuation: answer.continuation,
      };
    },
    { request: body, purpose: E2E_PURPOSE },
  );
}

/** How many records a search for `identifier` finds, all pages. */
async function searchCount(page: Page, identifier: string): Promise<number> {
  return page.evaluate(async (typed) => {
    let count = 0;
    let cursor: string | undefined;
    do {
      const response = await fetch('/api/audit-trail/search', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
        body: JSON.stringify({ identifier: typed, ...(cursor ? { cursor } : {}) }),
      });
      const body = (await response.json()) as { items: unknown[]; nextCursor: string | null };
      count += body.items.length;
      cursor = body.nextCursor ?? undefined;
    } while (cursor);
    return count;
  }, identifier);
}

test('a search for a demo identifier finds every lookup and listing page that displayed it', async ({
  page,
  mockUpstream,
}) => {
  // Many lookups, an export verified by a second process and an accessibility scan: more than the
  // default 30 s on a loaded machine.
  test.slow();
  await mockUpstream.reset();
  await page.goto('/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  // The live store keeps earlier runs' records: count what this test adds.
  const before = await searchCount(page, ADA);

  const made: Array<{
    operation: string;
    continued: boolean;
    showedAda: boolean;
    identifiers: string[];
  }> = [];
  const run = async (body: Lookup) => {
    const result = await lookUp(page, body);
    expect(result.status, body.operation).toBe(200);
    made.push({
      operation: body.operation,
      continued: body.continuation !== undefined,
      showedAda: result.showedAda,
      identifiers: result.identifiers,
    });
    return result;
  };
  await run({ operation: 'v4-details', params: { identifier: ADA } });
  await run({ operation: 'v4-basic-details', params: { identifier: 'grace.hopper@example.com' } });
  // The platform bounds both date listings to 7 days.
  const range = {
    fromDate: new Date(Date.now() - 6 * 86_400_000).toISOString(),
    toDate: new Date().toISOString(),
  };
  await run({ operation: 'v4-data-subjects', params: { ...range, size: '50' } });
  // All link tokens of the week, every "load more" page.
  let continuation: string | undefined;
  do {
    const result = await run({
      operation: 'v4-link-tokens',
      params: { ...range, size: '10' },
      ...(continuation ? { continuation } : {}),
    });
    continuation = result.continuation;
  } while (continuation);
  const displayed = made.filter((lookup) => lookup.showedAda);
  const tokenPages = made.filter((lookup) => lookup.operation === 'v4-link-tokens');
  expect(tokenPages.length).toBeGreaterThan(1);
  expect(displayed.some((lookup) => lookup.operation === 'v4-link-tokens')).toBe(true);
  expect(made.some((lookup) => !lookup.showedAda)).toBe(true);

  // A load-more page is found by the people it listed: the last page, the newest lookup of all,
  // is the newest record a search for someone on it finds.
  const lastPage = tokenPages.at(-1)!;
  expect(lastPage.continued).toBe(true);
  const newest = await page.evaluate(async (listed) => {
    const post = (body: unknown) =>
      fetch('/api/audit-trail/search', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
        body: JSON.stringify(body),
      }).then((response) => response.json());
    const trail = await fetch('/api/audit-trail?limit=1', { headers: { 'X-CSRF': '1' } }).then(
      (response) => response.json(),
    );
    const found = await post({ identifier: listed });
    return { trail: trail.items[0], found: found.items[0] };
  }, lastPage.identifiers[0]!);
  expect(newest.found).toMatchObject({
    id: newest.trail.id,
    operation: 'v4-link-tokens',
    continued: true,
    matchedBy: 'shown',
  });

  // The search, typed as someone might: another case, spaces around it.
  await page.reload();
  await page.getByLabel('Identifier', { exact: true }).fill('  Ada.Lovelace@Example.com ');
  await page.getByRole('button', { name: 'Find lookups' }).click();
  const found = page.getByRole('table', { name: 'Lookups of the identifier' });
  await expect(found).toBeVisible();
  await expect(page.getByText(/as an e-mail address, without regard to case/)).toBeVisible();
  expect(await searchCount(page, ADA)).toBe(before + displayed.length);

  // Newest first: the rows this test added are on top, one per lookup or page that showed her.
  const rows = found.getByRole('row');
  for (const [index, lookup] of [...displayed].reverse().entries()) {
    const row = rows.nth(index + 1);
    await expect(row).toContainText(lookup.operation);
    if (lookup.continued) await expect(row).toContainText('load-more page');
    await expect(row).toContainText(
      lookup.operation === 'v4-details' ? 'Asked for and shown' : 'Shown in the answer',
    );
  }
  await expect(found).not.toContainText(ADA);

  // The chain, verified from the page.
  await page.getByRole('button', { name: 'Verify now' }).click();
  await expect(page.getByTestId('chain-last-verified')).toContainText('Intact');

  // The search as a signed CSV, checked by the repository's verifier.
  const group = page.getByRole('group', { name: 'Export the search results' });
  const downloads: Array<{ name: string; path: string }> = [];
  page.on('download', (download) => {
    void download
      .path()
      .then((path) => downloads.push({ name: download.suggestedFilename(), path }));
  });
  await group.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByText(/^Saved audit-trail-.*\.csv \(\d+ records\)/)).toBeVisible();
  await expect.poll(() => downloads.length).toBe(2);
  const file = downloads.find((download) => download.name.endsWith('.csv'))!;
  const signature = downloads.find((download) => download.name.endsWith('.sig.json'))!;
  const verified = execFileSync(
    'npx',
    ['tsx', 'src/server/cli/audit.ts', 'verify-export', file.path, signature.path],
    { env: { ...process.env, AUDIT_KEY: E2E_AUDIT_KEY }, encoding: 'utf8' },
  );
  expect(verified).toContain('(the trusted key)');
  expect(verified).toMatch(new RegExp(`${before + displayed.length} records, CSV`));
  await test.info().attach('verify-export', { body: verified, contentType: 'text/plain' });
  await expectNoSeriousA11yViolations(page);
});
