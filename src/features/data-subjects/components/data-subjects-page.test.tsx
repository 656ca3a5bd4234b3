// The data-subjects page as a privacy admin uses it, with a stubbed BFF: a form built from the
// catalog (each operation its own, plain words, technical detail folded away) with inline
// validation that sends nothing until it is right, the answer as tables,
// "load more", the legacy comparison, not-found as an answer, and the identifier kept out of the
// URL; all of it in the platform connection the page's URL names (UAT here), and nothing of one
// connection's answer left on screen once another is chosen.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  jsonAnswer as json,
  renderRoute,
  stubApiPerTest,
} from '../../../lib/test-support/render-with-queries';
import {
  BUILT_IN_OPERATIONS,
  DATA_SUBJECT_PROBLEM_TYPES,
} from '../../../shared/data-subject-operations';
import type { LookupRequest } from '../../../shared/data-subject-lookups';
import type { PurposeMode } from '../../../shared/lookup-purpose';
import { PROBLEM_TYPES } from '../../../shared/problem';
import { DataSubjectsPage } from './data-subjects-page';

const ADA = 'ada.lovelace@example.com';

// Profiles as the v4 details document them, and the same purposes as v3 documents them.
const profiles = [
  { id: 'p1', name: 'Newsletter', status: 'ACTIVE', version: 2, totalTransactionCount: 3 },
  { id: 'p2', name: 'Analytics', status: 'WITHDRAWN', version: 1, totalTransactionCount: 1 },
];

let mode: 'demo' | 'live' = 'live';
/** LOOKUP_PURPOSE as /api/meta says it; unset: a console that asks for none (the bar is absent). */
let purposeMode: PurposeMode | undefined;
let lookups: LookupRequest[] = [];
/** The connection each request went to (the name in its API prefix), old paths as `(old path)`. */
let asked: string[] = [];

function answer(request: LookupRequest): Response {
  const at = new Date().toISOString();
  // The BFF's refusal of a reference that holds personal data (lookup-purpose.ts).
  if (request.purpose?.reference.includes('@')) {
    return json(
      {
        type: PROBLEM_TYPES.invalidParameter,
        title: 'The lookup is not valid',
        status: 400,
        parameter: 'purpose.reference',
        errors: { 'purpose.reference': 'must not be personal data: use the ticket or request id' },
      },
      400,
    );
  }
  const identifier = request.params?.identifier;
  if (identifier === 'nobody@example.com') {
    return json(
      {
        type: DATA_SUBJECT_PROBLEM_TYPES.notFound,
        title: 'No data subject with this identifier',
        status: 404,
        detail: 'The privacy platform answered that it has no such record.',
      },
      404,
    );
  }
  switch (request.operation) {
    case 'v4-details':
      return json({
        operation: request.operation,
        data: {
          identifier,
          language: 'en',
          profiles,
          loyaltyTier: 'gold',
          linkTokens: [{ token: 'lt_1', expiryDate: '2027-01-01T00:00:00Z' }],
        },
        fetchedAt: at,
      });
    case 'v3-datasubject-profile':
      return json({
        operation: request.operation,
        data: {
          identifier,
          language: 'en',
          linkToken: 'lt_1',
          purposes: profiles.map(({ totalTransactionCount: _, ...rest }) => rest),
        },
        fetchedAt: at,
      });
    case 'v4-data-subjects':
      return json({
        operation: request.operation,
        data: {
          content: [{ identifier: 'a@example.com' }, { identifier: 'b@example.com' }],
          last: true,
        },
        fetchedAt: at,
      });
    case 'v2-datasubjects': {
      // A legacy listing of 3 data subjects, 2 a page, paged by number.
      const page = Number(request.params?.page ?? 0);
      const all = ['a@example.com', 'b@example.com', 'c@example.com'];
      return json({
        operation: request.operation,
        data: {
          content: all.slice(page * 2, page * 2 + 2).map((each) => ({ identifier: each })),
          number: page,
          size: 2,
          last: page === 1,
          totalElements: 3,
          totalPages: 2,
        },
        fetchedAt: at,
      });
    }
    case 'v4-link-tokens':
      return request.continuation
        ? json({
            operation: request.operation,
            data: { content: [{ identifier: 'b@example.com', token: 'lt_2' }], last: true },
            fetchedAt: at,
          })
        : json({
            operation: request.operation,
            data: {
              content: [{ identifier: 'a@example.com', token: 'lt_1' }],
              last: false,
              requestContinuation: 'next',
            },
            continuation: 'next',
            fetchedAt: at,
          });
    default:
      return json({ type: '/problems/internal', title: 'unexpected', status: 500 }, 500);
  }
}

beforeEach(() => {
  mode = 'live';
  purposeMode = undefined;
  lookups = [];
  asked = [];
  sessionStorage.clear();
});
stubApiPerTest((url, init) => {
  if (url.startsWith('/api/data-subjects/')) asked.push('(old path)');
  const [, connection, path] =
    /^\/api\/connections\/([a-z-]+)(\/data-subjects\/.*)$/.exec(url) ?? [];
  if (connection) asked.push(connection);
  if (path === '/data-subjects/operations') return json({ operations: BUILT_IN_OPERATIONS });
  if (url === '/api/meta') {
    return json({
      mode,
      accountTier: 'production',
      demoControls: false,
      ...(purposeMode
        ? { lookupPurpose: { mode: purposeMode, categories: ['access request', 'complaint'] } }
        : {}),
    });
  }
  if (url === '/api/session') {
    return json({ username: 'alice', role: 'admin' });
  }
  if (path === '/data-subjects/lookups') {
    const request = JSON.parse(String(init?.body)) as LookupRequest;
    lookups.push(request);
    return answer(request);
  }
  return undefined;
});

const renderPage = (path = '/c/uat/data-subjects?operation=v4-details') =>
  renderRoute('/c/:connection/data-subjects', <DataSubjectsPage />, path);

describe('DataSubjectsPage', () => {
  it('builds the form of the chosen operation from the catalog, the technical side behind "Details"', async () => {
    const { user, router } = renderPage();
    const select = await screen.findByLabelText('Operation');
    expect(
      within(select).getByRole('option', { name: '2. Details with purposes' }),
    ).toBeInTheDocument();
    expect(
      within(select).getByRole('option', { name: '5. All purposes of a data subject' }),
    ).toBeInTheDocument();
    await user.selectOptions(select, 'v4-purpose-profile');
    expect(router.state.location.search).toBe('?operation=v4-purpose-profile');
    expect(screen.getByLabelText('Identifier')).toHaveAttribute('autocomplete', 'off');
    expect(screen.getByLabelText('Purpose GUID')).toHaveAccessibleDescription(
      'The purpose to return.',
    );
    // Folded away until asked for: the request, the vendor's operation id and why.
    const details = screen.getByText('Details').closest('details')!;
    expect(details).not.toHaveAttribute('open');
    await user.click(screen.getByText('Details'));
    expect(details).toHaveAttribute('open');
    expect(within(details).getByText('getDataSubjectProfileV4')).toBeInTheDocument();
    expect(
      within(details).getByText('GET /rest/api/consent/v4/datasubjects/profiles/{purposeGuid}'),
    ).toBeInTheDocument();
    expect(within(details).getByText('Documented')).toBeInTheDocument();
    expect(within(details).getByText(/Row 4 takes an identifier/)).toBeInTheDocument();
  });

  it('shows no developer wording outside the details toggles', async () => {
    const { user } = renderPage();
    const select = await screen.findByLabelText('Operation');
    for (const operation of BUILT_IN_OPERATIONS) {
      await user.selectOptions(select, operation.id);
      const page = document.body.cloneNode(true) as HTMLElement;
      for (const folded of page.querySelectorAll('details')) folded.remove();
      expect(page.textContent, operation.id).not.toMatch(
        /§|upstream-api|\.md\b|assumed path|[A-Z]{3,}_[A-Z_]{3,}|\/rest\/api|\bv4\/datasubjects/,
      );
    }
  });

  it('carries the identifier to the next identifier operation, and nothing else', async () => {
    const { user, router } = renderPage('/c/uat/data-subjects?operation=v4-purpose-profile');
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.type(screen.getByLabelText('Purpose GUID'), '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f');
    const select = screen.getByLabelText('Operation');
    await user.selectOptions(select, 'v4-purposes-by-date');
    expect(screen.getByLabelText(/^Purpose GUID/)).toHaveValue('');
    // The same person, asked about through another of the five identifier operations.
    await user.selectOptions(select, 'v4-details');
    expect(screen.getByLabelText('Identifier')).toHaveValue(ADA);
    await user.selectOptions(select, 'v4-purposes');
    expect(screen.getByLabelText('Identifier')).toHaveValue(ADA);
    // In memory only: never in the URL or the browser's storage.
    expect(router.state.location.search).not.toContain('ada');
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('ada');
    // Coming back, the operation's own values are still there.
    await user.selectOptions(select, 'v4-purpose-profile');
    expect(screen.getByLabelText('Purpose GUID')).toHaveValue(
      '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    );
  });

  it('clears the previous answer when another operation is chosen', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByRole('table', { name: 'Profiles' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Operation'), 'v4-basic-details');
    expect(screen.queryByRole('table', { name: 'Profiles' })).toBeNull();
  });

  it('explains the v4 numbers and marks a legacy call as replaced by its v4 operation', async () => {
    const { user } = renderPage();
    expect(
      await screen.findByText(/row 2 of the platform’s v4 migration guide/),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Operation'), 'v3-datasubject-profile');
    expect(screen.getByRole('note')).toHaveTextContent(
      /^Legacy v3 call, replaced by v4 #\d+ \(.+\)/,
    );
  });

  it('shows problems inline and sends nothing until the parameters are right', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-purpose-profile');
    await user.click(await screen.findByRole('button', { name: 'Look up' }));
    expect(screen.getByText('Identifier is required.')).toBeInTheDocument();
    expect(screen.getByLabelText('Identifier')).toHaveFocus();
    await user.type(screen.getByLabelText('Identifier'), ADA);
    await user.type(screen.getByLabelText('Purpose GUID'), 'not-a-guid');
    await user.tab();
    expect(screen.getByText(/^Purpose GUID must be a UUID/)).toBeInTheDocument();
    expect(lookups).toEqual([]);
  });

  it('looks up by identifier in the request body and shows purposes as a table, the URL untouched', async () => {
    const { user, router } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ` ${ADA} `);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    const table = await screen.findByRole('table', { name: 'Profiles' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('WITHDRAWN')).toBeInTheDocument();
    // A field the documents do not name is shown, not dropped.
    expect(screen.getByText('Loyalty tier')).toBeInTheDocument();
    expect(screen.getByText('gold')).toBeInTheDocument();
    expect(lookups).toEqual([{ operation: 'v4-details', params: { identifier: ADA } }]);
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/c/uat/data-subjects?operation=v4-details',
    );
    expect(JSON.stringify(router.state.location)).not.toContain('lovelace');
    expect(JSON.stringify(window.localStorage)).not.toContain('lovelace');
    expect(JSON.stringify(window.sessionStorage)).not.toContain('lovelace');
  });

  it('says "no data subject with this identifier" as an answer, not an error', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    const panel = await screen.findByRole('status');
    expect(panel).toHaveTextContent('No data subject with this identifier');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('clears the last answer when the next lookup is refused before it is sent', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByRole('status')).toHaveTextContent('No data subject');
    await user.clear(screen.getByLabelText('Identifier'));
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(screen.getByText('Identifier is required.')).toBeInTheDocument();
    expect(screen.queryByText(/No data subject/)).toBeNull();
  });

  it('marks an answer as the previous one once the form has changed', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    const result = await screen.findByRole('region', { name: /Details with purposes/ });
    expect(within(result).queryByText(/^Previous answer/)).toBeNull();
    await user.type(screen.getByLabelText('Identifier'), '.uk');
    expect(within(result).getByRole('note')).toHaveTextContent(
      /^Previous answer: the form has changed since this lookup/,
    );
  });

  it('checks what is typed in a number field, not the last number it held', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-data-subjects');
    const size = await screen.findByLabelText(/^Page size/);
    await user.type(size, '-1');
    await user.tab();
    expect(screen.getByText(/^Page size must be a whole number from 1/)).toBeInTheDocument();
    await user.clear(size);
    await user.type(size, 'abc');
    expect(size).toHaveValue('abc');
    expect(screen.getByText(/^Page size must be a whole number from 1/)).toBeInTheDocument();
  });

  it('moves focus to the answer’s heading when it arrives, and to a problem’s', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: /Details with purposes/ })).toHaveFocus(),
    );
    await user.clear(screen.getByLabelText('Identifier'));
    await user.type(screen.getByLabelText('Identifier'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: /No data subject/ })).toHaveFocus(),
    );
  });

  it('loads more pages with the continuation token until there are none', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-link-tokens');
    await user.click(await screen.findByRole('button', { name: 'Look up' }));
    expect(await screen.findByRole('table', { name: 'Link tokens' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Link tokens' })).getAllByRole('row'),
      ).toHaveLength(3),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText(/2 records, 2 pages loaded; that is all/)).toBeInTheDocument();
    expect(lookups[1]).toMatchObject({ operation: 'v4-link-tokens', continuation: 'next' });
    expect(lookups[1]?.params).toEqual(lookups[0]?.params);
  });

  it('compares with the legacy call and says what differs', async () => {
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await user.click(await screen.findByRole('button', { name: 'Compare with legacy' }));
    const summary = await screen.findByRole('region', { name: 'What differs' });
    // v3's purposes are v4's profiles: only the field v3 lacks differs, not the whole list.
    expect(within(summary).getByText('Profiles › Total transaction count')).toBeInTheDocument();
    expect(within(summary).queryByText(/^Purposes/)).not.toBeInTheDocument();
    // v3's one link token is v4's list of them: reshaped, not left out.
    const leftOut = within(summary).getByText('v4 leaves out').parentElement!;
    expect(within(leftOut).queryByText('Link token')).toBeNull();
    const reshaped = within(summary).getByRole('heading', {
      name: 'Moved or reshaped in v4',
    }).parentElement!;
    expect(reshaped).toHaveTextContent('Link token: reshaped: now a list, Link tokens');
    expect(lookups.at(-1)).toEqual({
      operation: 'v3-datasubject-profile',
      params: { identifier: ADA },
    });
    expect(screen.getByRole('table', { name: 'v4: Profiles' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Legacy: Purposes' })).toBeInTheDocument();
  });

  it('folds the documented options under "Options" and sends only the ones set', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-data-subjects');
    const options = (await screen.findByText('Options')).closest('details')!;
    expect(options).not.toHaveAttribute('open');
    expect(screen.getByText('(none set)')).toBeInTheDocument();
    // The common case: dates only, and the lookup carries no option.
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Data subjects' });
    expect(Object.keys(lookups[0]!.params!).sort()).toEqual(['fromDate', 'toDate']);

    await user.click(screen.getByText('Options'));
    expect(options).toHaveAttribute('open');
    const order = within(options).getByLabelText(/Order/);
    expect(
      within(order).getByRole('option', {
        name: /Platform default \(Last modified date, latest first\)/,
      }),
    ).toBeInTheDocument();
    await user.selectOptions(order, 'lastModifiedDate,asc');
    const dnc = within(options).getByRole('checkbox', {
      name: 'Include data subjects on the Do Not Call list',
    });
    expect(dnc).not.toBeChecked();
    await user.click(dnc);
    expect(screen.getByText('(2 set)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() => expect(lookups).toHaveLength(2));
    expect(lookups[1]!.params).toMatchObject({
      sort: 'lastModifiedDate,asc',
      isDNCInclude: 'true',
    });
    // Unticked again: the flag is not sent at all, so the platform's default applies.
    await user.click(dnc);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() => expect(lookups).toHaveLength(3));
    expect(lookups[2]!.params).not.toHaveProperty('isDNCInclude');
  });

  it('shows a nested list in a table cell as its count, the entries behind a disclosure', async () => {
    const { user } = renderPage();
    profiles[0] = {
      ...profiles[0]!,
      topics: [
        { id: 't1', name: 'Frequency: Weekly' },
        { id: 't2', name: 'Channel: SMS' },
      ],
    } as (typeof profiles)[number];
    try {
      await user.type(await screen.findByLabelText('Identifier'), ADA);
      await user.click(screen.getByRole('button', { name: 'Look up' }));
      const table = await screen.findByRole('table', { name: 'Profiles' });
      const summary = within(table).getByText('2 topics');
      expect(summary.closest('details')).not.toHaveAttribute('open');
      await user.click(summary);
      expect(summary.closest('details')).toHaveAttribute('open');
      expect(within(table).getByText('Channel: SMS')).toBeVisible();
    } finally {
      const { topics: _, ...rest } = profiles[0] as (typeof profiles)[number] & {
        topics?: unknown;
      };
      profiles[0] = rest;
    }
  });

  it('loads more of a paged legacy answer in the comparison, with the legacy total', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-data-subjects');
    await user.click(await screen.findByRole('button', { name: 'Look up' }));
    await user.click(await screen.findByRole('button', { name: 'Compare with legacy' }));
    expect(
      await screen.findByText(/2 of 3 records, 1 page loaded; the legacy call has more/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more from v2 data subjects' }));
    expect(
      await screen.findByText(/3 of 3 records, 2 pages loaded; that is all/),
    ).toBeInTheDocument();
    expect(lookups.at(-1)).toMatchObject({ operation: 'v2-datasubjects', params: { page: '1' } });
    expect(
      within(screen.getByRole('table', { name: 'Legacy: Data subjects' })).getAllByRole('row'),
    ).toHaveLength(4);
    expect(screen.queryByRole('button', { name: /Load more from/ })).not.toBeInTheDocument();
  });

  it('says which pages a comparison covers, loads all of both, and pairs records by id', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-data-subjects');
    await user.click(await screen.findByRole('button', { name: 'Look up' }));
    await user.click(await screen.findByRole('button', { name: 'Compare with legacy' }));
    expect(
      await screen.findByText(
        'Compared the pages loaded so far: v4 1 page (all), legacy 1 page (it has more). Counts and fields on pages not loaded are not compared.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load all and compare' }));
    expect(
      await screen.findByText('Compared whole answers: v4 1 page, legacy 2 pages.'),
    ).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'What differs' });
    // The person only the legacy listing holds is a record v4 lacks, not a value that differs.
    expect(
      within(summary).getByText(
        'Record by record, paired by identifier: 2 records on both sides. Not compared: 1 record only in legacy.',
      ),
    ).toBeInTheDocument();
    expect(within(summary).queryByText(/c@example\.com/)).toBeNull();
    expect(within(summary).queryByText(/v4 —/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load all and compare' })).toBeNull();
  });

  it('offers the demo data’s examples in demo mode only', async () => {
    mode = 'demo';
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: ADA }));
    expect(screen.getByLabelText('Identifier')).toHaveValue(ADA);
  });

  it('has no demo hints in live mode', async () => {
    renderPage();
    await screen.findByLabelText('Identifier');
    await waitFor(() =>
      expect(vi.mocked(fetch)).toHaveBeenCalledWith('/api/meta', expect.anything()),
    );
    expect(screen.queryByRole('complementary', { name: 'Demo data' })).not.toBeInTheDocument();
  });
});

// Each test types into several fields, some twice: more than the default 5 s on a busy machine.
describe('the purpose bar', { timeout: 20_000 }, () => {
  const DSAR = { category: 'access request', reference: 'DSAR-2291' };

  async function statePurpose(user: ReturnType<typeof renderPage>['user'], reference: string) {
    await user.selectOptions(await screen.findByLabelText('Category'), 'access request');
    await user.clear(screen.getByLabelText('Reference'));
    await user.type(screen.getByLabelText('Reference'), reference);
  }

  it('asks for a purpose before the first lookup, sending nothing without one', async () => {
    purposeMode = 'required';
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(screen.getByText('Category is required: choose one.')).toBeInTheDocument();
    expect(screen.getByText('Reference is required (a ticket or request id).')).toBeInTheDocument();
    expect(screen.getByLabelText('Category')).toHaveFocus();
    expect(screen.getByLabelText('Category')).toHaveAttribute('aria-invalid', 'true');
    expect(lookups).toEqual([]);
  });

  it('sends the purpose with every lookup, its next pages and the legacy comparison, and shows it', async () => {
    purposeMode = 'required';
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-data-subjects');
    await statePurpose(user, ' DSAR-2291 ');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Data subjects' });
    expect(screen.getByRole('group', { name: 'Purpose' })).toHaveTextContent(
      'Working on DSAR-2291 · access request',
    );
    expect(screen.queryByLabelText('Reference')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Compare with legacy' }));
    await user.click(
      await screen.findByRole('button', { name: 'Load more from v2 data subjects' }),
    );
    await screen.findByText(/3 of 3 records, 2 pages loaded; that is all/);
    expect(lookups.map((each) => each.operation)).toEqual([
      'v4-data-subjects',
      'v2-datasubjects',
      'v2-datasubjects',
    ]);
    expect(lookups.map((each) => each.purpose)).toEqual([DSAR, DSAR, DSAR]);
  });

  it('changes in one step, keeping what was stated, and keeps it for the tab', async () => {
    purposeMode = 'required';
    const first = renderPage();
    await statePurpose(first.user, 'DSAR-2291');
    await first.user.click(screen.getByRole('button', { name: 'Use this purpose' }));
    await first.user.click(await screen.findByRole('button', { name: 'Change the purpose' }));
    expect(screen.getByLabelText('Reference')).toHaveValue('DSAR-2291');
    expect(screen.getByLabelText('Category')).toHaveFocus();
    await first.user.selectOptions(screen.getByLabelText('Category'), 'complaint');
    await first.user.type(screen.getByLabelText('Reference'), '{Enter}');
    expect(screen.getByRole('group', { name: 'Purpose' })).toHaveTextContent(
      'Working on DSAR-2291 · complaint',
    );
    cleanup();
    // Back on the page in the same tab: the purpose is still in force, and sent.
    const again = renderPage();
    expect(await screen.findByRole('group', { name: 'Purpose' })).toHaveTextContent(
      'Working on DSAR-2291 · complaint',
    );
    await again.user.type(screen.getByLabelText('Identifier'), ADA);
    await again.user.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() => expect(lookups).toHaveLength(1));
    expect(lookups[0]?.purpose).toEqual({ category: 'complaint', reference: 'DSAR-2291' });
  });

  it('shows a refused reference beside its field, with what was typed', async () => {
    purposeMode = 'required';
    const { user } = renderPage();
    await statePurpose(user, 'ada@example.org');
    await user.type(screen.getByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(
      await screen.findByText('Reference must not be personal data: use the ticket or request id.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Reference')).toHaveValue('ada@example.org');
    expect(screen.getByLabelText('Reference')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Identifier')).toHaveValue(ADA);
    await user.clear(screen.getByLabelText('Reference'));
    await user.type(screen.getByLabelText('Reference'), 'DSAR-2291');
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Profiles' });
    expect(lookups.at(-1)?.purpose).toEqual(DSAR);
  });

  it('lets a lookup go without a purpose when it is optional', async () => {
    purposeMode = 'optional';
    const { user } = renderPage();
    expect(await screen.findByText('(optional)', { exact: false })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Profiles' });
    expect(lookups[0]).not.toHaveProperty('purpose');
  });

  it('is not shown when the console asks for no purpose', async () => {
    purposeMode = 'off';
    renderPage();
    await screen.findByLabelText('Identifier');
    expect(screen.queryByLabelText('Reference')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Purpose' })).not.toBeInTheDocument();
  });
});

describe('DataSubjectsPage in one connection', () => {
  it('asks the catalog and every lookup of the connection its URL names, never the old paths', async () => {
    const { user } = renderPage('/c/uat/data-subjects?operation=v4-link-tokens');
    await user.click(await screen.findByRole('button', { name: 'Look up' }));
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(lookups).toHaveLength(2));
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(new Set(asked)).toEqual(new Set(['uat']));
  });

  it('clears the answer and the identifier typed when another connection is chosen', async () => {
    const { user, router } = renderPage();
    await user.type(await screen.findByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Profiles' });

    await act(() => router.navigate('/c/default/data-subjects?operation=v4-details'));
    await screen.findByLabelText('Identifier');
    expect(screen.queryByRole('table', { name: 'Profiles' })).toBeNull();
    expect(screen.getByLabelText('Identifier')).toHaveValue('');
    expect(document.body).not.toHaveTextContent('lovelace');
    // What is asked from now on goes to the connection now named.
    await user.type(screen.getByLabelText('Identifier'), ADA);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await screen.findByRole('table', { name: 'Profiles' });
    expect(asked.at(-1)).toBe('default');
  });
});
