// The event-types page as a user meets it: rendered in a memory router with a stubbed BFF, so
// filters, URL, sorting, export and every failure state are checked through what is on screen.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { flushSync } from 'react-dom';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventType } from '../../../shared/event-types';
import { PROBLEM_TYPES, type Problem } from '../../../shared/problem';
import { EventTypesPage } from './event-types-page';
import { URL_WRITE_DELAY_MS } from '../use-event-types-view';

// jsdom does no layout, so every element is 0×0 and the virtualiser would render no rows at all.
// The virtualiser reads its viewport from the scroll element's clientWidth/clientHeight, so this
// file gives the table's scroll box (and only it) a 1000×600 viewport: 15 rows of 40 px plus
// overscan get rendered, as in a browser.
const SCROLL_BOX_CLASS = 'event-types-scroll';
beforeAll(() => {
  for (const [property, size] of [
    ['clientHeight', 600],
    ['clientWidth', 1000],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, property, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains(SCROLL_BOX_CLASS) ? size : 0;
      },
    });
  }
});
afterAll(() => {
  // Removing the own properties brings back jsdom's Element.prototype getters.
  Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const FETCHED_AT = '2024-05-06T07:08:09.000Z';

const ITEMS: EventType[] = [
  { code: 1001, value: 'Consent given', objectTypeName: 'Purpose', moduleName: 'Consent' },
  { code: 1002, value: 'Consent withdrawn', objectTypeName: 'Purpose', moduleName: 'Consent' },
  { code: 1003, value: 'Consent expired', objectTypeName: 'Data subject', moduleName: 'Consent' },
  { code: 2001, value: 'Request created', objectTypeName: 'Request', moduleName: 'DSAR' },
  { code: 2002, value: 'Request closed', objectTypeName: 'Request', moduleName: 'DSAR' },
  { code: 3001, value: 'Banner published', objectTypeName: 'Domain', moduleName: 'Cookies' },
  { code: 4001, value: 'Assessment approved', moduleName: 'Assessments' },
  { code: 5001, value: 'Vendor onboarded', objectTypeName: 'Vendor' },
  { value: 'Legacy import finished', objectTypeName: 'Import', moduleName: 'Integrations' },
];

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function problemResponse(problem: Problem): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

/** Stubs the BFF: each call answers with the next responder's response (the last one repeats). */
function stubFetch(...responders: Array<() => Response | Promise<Response>>) {
  let call = 0;
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    expect(String(input)).toBe('/api/connections/uat/event-types');
    const responder = responders[Math.min(call, responders.length - 1)]!;
    call += 1;
    return responder();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function stubEventTypes(items: EventType[] = ITEMS) {
  return stubFetch(() => jsonResponse({ items, fetchedAt: FETCHED_AT }));
}

function syncRouterUpdate(update: () => unknown): undefined {
  flushSync(update);
}

/**
 * The page in a memory router, inside a frame with a link elsewhere (as the console's navigation
 * is), so that leaving the page by a link can be checked too.
 */
function renderPage(initialEntries: string[] = ['/c/uat/event-types'], initialIndex?: number) {
  const frame = (
    <>
      <Link to="/c/uat/rate-limits">Rate limits</Link>
      <Outlet />
    </>
  );
  const router = createMemoryRouter(
    [
      {
        element: frame,
        children: [
          { path: '/c/uat/event-types', element: <EventTypesPage /> },
          { path: '/c/uat/rate-limits', element: <p>Rate limits page</p> },
        ],
      },
    ],
    { initialEntries, initialIndex },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      {/* What RouterProvider from react-router/dom passes; importing that entry here would load a
          second copy of react-router under Vitest. */}
      <RouterProvider router={router} flushSync={syncRouterUpdate} />
    </QueryClientProvider>,
  );
  return { router };
}

async function findTable() {
  return screen.findByRole('table', { name: 'Event types' });
}

/** The names in the table's body, in display order ("—" for a missing name). */
function shownNames(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => row.getAttribute('aria-hidden') !== 'true')
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent!.replace('not set', ''));
}

function search(router: ReturnType<typeof createMemoryRouter>): URLSearchParams {
  return new URLSearchParams(router.state.location.search);
}

describe('EventTypesPage', () => {
  it('says it is loading, then shows every event type with a summary and the fetch time', async () => {
    stubEventTypes();
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading event types…');

    const table = await findTable();
    expect(shownNames(table)).toHaveLength(ITEMS.length);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Code', 'Name', 'Object type', 'Module']);
    expect(screen.getByText('Showing 9 of 9 event types')).toBeInTheDocument();
    expect(screen.getByText(/Data fetched at/).querySelector('time')).toHaveAttribute(
      'datetime',
      FETCHED_AT,
    );
  });

  it('shows a visible dash, read as "not set", for a missing field', async () => {
    stubEventTypes();
    renderPage();
    const table = await findTable();
    const row = within(table).getByRole('row', { name: /Vendor onboarded/ });
    const moduleCell = within(row).getAllByRole('cell')[3]!;
    expect(moduleCell).toHaveTextContent('—');
    expect(moduleCell).toHaveAccessibleName('not set');
    const legacyRow = within(table).getByRole('row', { name: /Legacy import finished/ });
    expect(within(legacyRow).getAllByRole('cell')[0]).toHaveTextContent('—');
  });

  it('narrows the rows and updates the URL when a module is ticked', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage();
    const table = await findTable();

    const modules = screen.getByRole('group', { name: 'Module' });
    await user.click(within(modules).getByRole('checkbox', { name: 'Consent (3)' }));

    await waitFor(() =>
      expect(shownNames(table)).toEqual(['Consent given', 'Consent withdrawn', 'Consent expired']),
    );
    await waitFor(() => expect(search(router).getAll('module')).toEqual(['Consent']));
    expect(router.state.historyAction).toBe('PUSH');
    expect(screen.getByText('Showing 3 of 9 event types')).toBeInTheDocument();
    // Object-type counts follow the module selection: faceted search.
    const objectTypes = screen.getByRole('group', { name: 'Object type' });
    expect(within(objectTypes).getByRole('checkbox', { name: 'Purpose (2)' })).toBeInTheDocument();
    expect(within(objectTypes).getByRole('checkbox', { name: 'Request (0)' })).toBeInTheDocument();

    // A second module widens (OR); back undoes one tick at a time.
    await user.click(within(modules).getByRole('checkbox', { name: 'DSAR (2)' }));
    await waitFor(() => expect(shownNames(table)).toHaveLength(5));
    await waitFor(() => expect(search(router).getAll('module')).toEqual(['Consent', 'DSAR']));

    await act(() => router.navigate(-1));
    await waitFor(() => expect(shownNames(table)).toHaveLength(3));
    expect(within(modules).getByRole('checkbox', { name: /^DSAR/ })).not.toBeChecked();
  });

  it('shows a click at once and writes the URL after, one history entry per click', async () => {
    stubEventTypes();
    const { router } = renderPage();
    const table = await findTable();
    const modules = screen.getByRole('group', { name: 'Module' });
    const box = (name: RegExp) => within(modules).getByRole('checkbox', { name });

    // Two ticks in one go, before the first one's URL is written: both stay ticked, the rows
    // show both at once, and the URL has not moved yet.
    act(() => box(/^Consent/).click());
    act(() => box(/^DSAR/).click());
    expect(box(/^Consent/)).toBeChecked();
    expect(box(/^DSAR/)).toBeChecked();
    expect(shownNames(table)).toHaveLength(5);
    expect(search(router).getAll('module')).toEqual([]);

    // Then the URL follows, each click its own entry: back undoes the second tick only.
    await waitFor(() => expect(search(router).getAll('module')).toEqual(['Consent', 'DSAR']));
    expect(router.state.historyAction).toBe('PUSH');
    await act(() => router.navigate(-1));
    expect(search(router).getAll('module')).toEqual(['Consent']);
    await waitFor(() => expect(shownNames(table)).toHaveLength(3));
    expect(box(/^DSAR/)).not.toBeChecked();
  });

  it('lets back win over a click whose URL is not written yet', async () => {
    stubEventTypes();
    const { router } = renderPage(['/c/uat/event-types', '/c/uat/event-types?module=Consent']);
    const table = await findTable();
    expect(shownNames(table)).toHaveLength(3);
    const modules = screen.getByRole('group', { name: 'Module' });

    act(() => within(modules).getByRole('checkbox', { name: /^DSAR/ }).click());
    expect(shownNames(table)).toHaveLength(5);
    await act(() => router.navigate(-1));

    // The page shows where back went, and the pending click is not written over it.
    await waitFor(() => expect(shownNames(table)).toHaveLength(ITEMS.length));
    // Past the moment the click's URL would have been written.
    await new Promise((resolve) => setTimeout(resolve, URL_WRITE_DELAY_MS + 100));
    expect(router.state.location.search).toBe('');
    expect(shownNames(table)).toHaveLength(ITEMS.length);
  });

  it('keeps a click and a search made just before leaving by a link, for back to return to', async () => {
    stubEventTypes();
    const { router } = renderPage();
    await findTable();
    const box = () =>
      within(screen.getByRole('group', { name: 'Module' })).getByRole('checkbox', {
        name: /^Consent/,
      });

    // A tick, then a search, then away at once, in one go: nothing of it is in the URL yet.
    act(() => box().click());
    act(() => {
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search event types' }), {
        target: { value: 'given' },
      });
    });
    expect(router.state.location.search).toBe('');
    act(() => screen.getByRole('link', { name: 'Rate limits' }).click());
    expect(router.state.location.pathname).toBe('/c/uat/rate-limits');

    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/c/uat/event-types');
    expect(search(router).getAll('module')).toEqual(['Consent']);
    expect(search(router).get('q')).toBe('given');
    const table = await findTable();
    await waitFor(() => expect(shownNames(table)).toEqual(['Consent given']));
    expect(box()).toBeChecked();
    expect(screen.getByRole('searchbox', { name: 'Search event types' })).toHaveValue('given');
    // The tick and the search are one entry, after the page as it was opened.
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
  });

  it('filters records missing a field through "(not set)"', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage();
    const table = await findTable();
    const objectTypes = screen.getByRole('group', { name: 'Object type' });
    await user.click(within(objectTypes).getByRole('checkbox', { name: '(not set) (1)' }));
    await waitFor(() => expect(shownNames(table)).toEqual(['Assessment approved']));
    await waitFor(() => expect(search(router).get('objectType')).toBe('(not set)'));
  });

  it('opens a shared link with its filters, search and sort applied', async () => {
    stubEventTypes();
    renderPage(['/c/uat/event-types?module=Consent&module=DSAR&q=re&sort=code&dir=desc']);
    const table = await findTable();
    expect(shownNames(table)).toEqual(['Request closed', 'Request created', 'Consent expired']);
    expect(screen.getByRole('searchbox', { name: 'Search event types' })).toHaveValue('re');
    const modules = screen.getByRole('group', { name: 'Module' });
    expect(within(modules).getByRole('checkbox', { name: /^Consent/ })).toBeChecked();
    expect(within(modules).getByRole('checkbox', { name: /^DSAR/ })).toBeChecked();
    expect(within(modules).getByRole('checkbox', { name: /^Cookies/ })).not.toBeChecked();
    expect(screen.getByRole('columnheader', { name: 'Code' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('ignores invalid values in the URL instead of failing', async () => {
    stubEventTypes();
    renderPage(['/c/uat/event-types?sort=secret&dir=up&module=&module=%00']);
    const table = await findTable();
    expect(shownNames(table)).toHaveLength(ITEMS.length);
    for (const header of within(table).getAllByRole('columnheader')) {
      expect(header).not.toHaveAttribute('aria-sort');
    }
  });

  it('searches names and codes as the user types, replacing the history entry', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage();
    const table = await findTable();
    const box = screen.getByRole('searchbox', { name: 'Search event types' });

    await user.type(box, 'WITHDRAWN');
    await waitFor(() => expect(shownNames(table)).toEqual(['Consent withdrawn']));
    await waitFor(() => expect(search(router).get('q')).toBe('WITHDRAWN'));
    expect(router.state.historyAction).toBe('REPLACE');

    await user.clear(box);
    await user.type(box, '300');
    await waitFor(() => expect(shownNames(table)).toEqual(['Banner published']));
  });

  it('marks what the search matched in the name and the code, and nowhere else', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    renderPage();
    const table = await findTable();

    await user.type(screen.getByRole('searchbox', { name: 'Search event types' }), 'CONSENT');
    await waitFor(() =>
      expect(shownNames(table)).toEqual(['Consent given', 'Consent withdrawn', 'Consent expired']),
    );
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    const marked = cells.map((cell) =>
      [...cell.querySelectorAll('mark')].map((m) => m.textContent),
    );
    // The name keeps its own spelling inside the mark; the module, also "Consent", is not searched.
    expect(cells[3]!.textContent).toBe('Consent');
    expect(marked).toEqual([[], ['Consent'], [], []]);

    await user.clear(screen.getByRole('searchbox', { name: 'Search event types' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search event types' }), '300');
    await waitFor(() => expect(shownNames(table)).toEqual(['Banner published']));
    const codeCell = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell')[0]!;
    expect(codeCell.textContent).toBe('3001');
    expect([...codeCell.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['300']);
  });

  it('restores the search text on back and forward', async () => {
    stubEventTypes();
    const { router } = renderPage(['/c/uat/event-types?q=consent', '/c/uat/event-types'], 1);
    const table = await findTable();
    const box = screen.getByRole('searchbox', { name: 'Search event types' });
    expect(box).toHaveValue('');
    await act(() => router.navigate(-1));
    await waitFor(() => expect(box).toHaveValue('consent'));
    await waitFor(() => expect(shownNames(table)).toHaveLength(3));
  });

  it('sorts by a column header, ascending then descending then unsorted, missing values last', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage();
    const table = await findTable();
    const header = () => screen.getByRole('columnheader', { name: 'Module' });

    await user.click(screen.getByRole('button', { name: 'Module' }));
    await waitFor(() => expect(header()).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(() => expect(search(router).get('sort')).toBe('module'));
    expect(search(router).get('dir')).toBe('asc');
    expect(shownNames(table).at(0)).toBe('Assessment approved');
    expect(shownNames(table).at(-1)).toBe('Vendor onboarded');

    await user.click(screen.getByRole('button', { name: 'Module' }));
    await waitFor(() => expect(header()).toHaveAttribute('aria-sort', 'descending'));
    await waitFor(() => expect(search(router).get('dir')).toBe('desc'));
    expect(shownNames(table).at(0)).toBe('Legacy import finished');
    // Missing values stay last when descending too.
    expect(shownNames(table).at(-1)).toBe('Vendor onboarded');

    await user.click(screen.getByRole('button', { name: 'Module' }));
    await waitFor(() => expect(header()).not.toHaveAttribute('aria-sort'));
    await waitFor(() => expect(search(router).has('sort')).toBe(false));
  });

  it('says when nothing matches and clears every filter in one go', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage([
      '/c/uat/event-types?q=nothing-like-this&module=Consent&sort=code',
    ]);
    expect(await screen.findByText('No event types match these filters')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Event types' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    const clearButtons = screen.getAllByRole('button', { name: 'Clear all filters' });
    expect(clearButtons).toHaveLength(1);
    await user.click(clearButtons[0]!);

    const table = await findTable();
    expect(shownNames(table)).toHaveLength(ITEMS.length);
    expect(screen.getByRole('searchbox', { name: 'Search event types' })).toHaveValue('');
    // Sorting is not a filter; it stays.
    await waitFor(() => expect(router.state.location.search).toBe('?sort=code&dir=asc'));
  });

  it('clears one facet with its own button', async () => {
    stubEventTypes();
    const user = userEvent.setup();
    const { router } = renderPage(['/c/uat/event-types?module=Consent&objectType=Purpose']);
    const table = await findTable();
    expect(shownNames(table)).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Clear Module filter' }));
    await waitFor(() => expect(search(router).has('module')).toBe(false));
    expect(search(router).get('objectType')).toBe('Purpose');
    expect(shownNames(table)).toEqual(['Consent given', 'Consent withdrawn']);
  });

  it('says so when the platform has no event types at all', async () => {
    stubEventTypes([]);
    renderPage();
    expect(await screen.findByText('No event types yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('exports the filtered, sorted rows as CSV', async () => {
    stubEventTypes([
      ...ITEMS,
      { code: 1004, value: '=HYPERLINK("x")', objectTypeName: 'Purpose', moduleName: 'Consent' },
    ]);
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:event-types';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    // jsdom cannot download; the click's receiver is the link the browser would follow.
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    renderPage(['/c/uat/event-types?module=Consent&sort=code&dir=desc']);
    await findTable();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/^event-types-\d{4}-\d{2}-\d{2}\.csv$/);
    // The export is confirmed where the row count is announced.
    expect(screen.getByText(/Showing 4 of/)).toHaveTextContent(
      `Exported 4 event types to ${link.download}.`,
    );
    const text = (await blobs[0]!.text()).replace(/^\uFEFF/, '');
    expect(text).toBe(
      [
        'Code,Name,Object type,Module',
        `1004,"'=HYPERLINK(""x"")",Purpose,Consent`,
        '1003,Consent expired,Data subject,Consent',
        '1002,Consent withdrawn,Purpose,Consent',
        '1001,Consent given,Purpose,Consent',
        '',
      ].join('\r\n'),
    );
  });

  it('keeps at most a screenful of rows in the DOM for 10,000 event types', async () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({
      code: index,
      value: `Event ${index}`,
      objectTypeName: `Object ${index % 40}`,
      moduleName: `Module ${index % 12}`,
    }));
    stubEventTypes(many);
    renderPage();
    const table = await findTable();
    const rendered = within(table).getAllByRole('row').length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThanOrEqual(150);
    expect(table).toHaveAttribute('aria-rowcount', '10001');
    expect(screen.getByText('Showing 10,000 of 10,000 event types')).toBeInTheDocument();
  });
});

describe('EventTypesPage failures', () => {
  const upstream = (type: string, status: number, title = 'Upstream problem'): Problem => ({
    type,
    title,
    status,
  });

  it.each([
    [
      upstream(PROBLEM_TYPES.upstreamForbidden, 502),
      'The console may not read the activity log',
      'Ask an administrator to grant the ACTIVITY_LOG scope.',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamUnauthorized, 502),
      "The privacy platform rejected the console's credentials",
      'client ID and secret',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamBadRequest, 502),
      'The privacy platform refused the request',
      'did not accept',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamError, 502),
      'The privacy platform had an internal error',
      'Try again in a moment.',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamUnavailable, 503),
      'The privacy platform is unavailable',
      'Try again in a moment.',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamTimeout, 504),
      'The privacy platform did not answer in time',
      'Try again in a moment.',
    ],
    [
      upstream(PROBLEM_TYPES.upstreamInvalidResponse, 502),
      'The privacy platform sent an answer the console does not understand',
      'expected shape',
    ],
    [
      upstream(PROBLEM_TYPES.internal, 500),
      'The console could not load the event types',
      'check its logs',
    ],
  ])('explains %j and loads on "Try again"', async (problem, title, advice) => {
    const fetchMock = stubFetch(
      () => problemResponse(problem),
      () => jsonResponse({ items: ITEMS, fetchedAt: FETCHED_AT }),
    );
    const user = userEvent.setup();
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent(advice);

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await findTable();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses a list it cannot read, whole, and shows nothing of it', async () => {
    // One record that is not an object: the list is not shown half-read.
    stubFetch(() => jsonResponse({ items: [ITEMS[0], 'Consent given'], fetchedAt: FETCHED_AT }));
    renderPage();
    const alert = await screen.findByRole('alert');
    // The console server's answer, not the platform's: the platform's wording would mislead.
    expect(alert).toHaveTextContent(
      'The console server sent an answer this page does not understand',
    );
    expect(alert).toHaveTextContent('Reload the page');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('tells the user when the console server cannot be reached', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The console server could not be reached');
    expect(alert).toHaveTextContent('Check your network connection');
  });

  it('counts down a rate limit and only then lets the user try again', async () => {
    // Only the countdown's clock is faked; promises and the router keep real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const fetchMock = stubFetch(
      () =>
        problemResponse({
          type: PROBLEM_TYPES.rateLimited,
          title: 'Too many requests',
          status: 429,
          retryAfterSeconds: 3,
          incidentId: 'rl-7f3a',
        }),
      () => jsonResponse({ items: ITEMS, fetchedAt: FETCHED_AT }),
    );
    const user = userEvent.setup();
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Rate limited by the privacy platform — try again in 0:03');
    expect(alert).toHaveTextContent('rl-7f3a');
    const retry = within(alert).getByRole('button', { name: 'Try again' });
    expect(retry).toHaveAttribute('aria-disabled', 'true');

    act(() => vi.advanceTimersByTime(1000));
    expect(alert).toHaveTextContent('try again in 0:02');
    expect(retry).toHaveAttribute('aria-disabled', 'true');

    act(() => vi.advanceTimersByTime(2000));
    expect(alert).toHaveTextContent('you can try again now');
    expect(retry).not.toHaveAttribute('aria-disabled');

    await user.click(retry);
    await findTable();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('has one Refresh during a block, unavailable, saying why and when the block ends', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const fetchMock = stubFetch(() =>
      jsonResponse({
        items: ITEMS,
        fetchedAt: FETCHED_AT,
        stale: { reason: 'Too many requests', status: 429, retryAfterSeconds: 90 },
      }),
    );
    const user = userEvent.setup();
    renderPage();
    await findTable();

    const refreshes = screen.getAllByRole('button', { name: 'Refresh' });
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toHaveAttribute('aria-disabled', 'true');
    const notice = screen
      .getAllByRole('status')
      .find((element) => element.textContent?.includes('Showing the list fetched at'))!;
    expect(notice).toContainElement(refreshes[0]!);
    expect(notice).toHaveTextContent('rate limiting the account');
    expect(notice).toHaveTextContent(/can be asked for in 1:30 \(at \d{2}:\d{2}:\d{2} \S+\)/);

    await user.click(refreshes[0]!);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
