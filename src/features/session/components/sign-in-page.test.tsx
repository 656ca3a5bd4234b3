// The sign-in page as a user meets it, with a stubbed BFF: what each failure says, the wait after
// too many attempts, and where a successful sign-in goes (never to another site).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { flushSync } from 'react-dom';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../../shared/problem';
import type { SignInOptions } from '../../../shared/sign-in-options';
import { sessionQueryKey } from '../../../lib/session-query';
import { recordSessionEnd } from '../session-end';
import { SignInPage } from './sign-in-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function problem(value: Problem): Response {
  return new Response(JSON.stringify(value), {
    status: value.status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

const SIGNED_OUT: Problem = {
  type: '/problems/signed-out',
  title: 'You are signed out',
  status: 401,
};

/**
 * Stubs the BFF: GET /api/session is signed out, POST answers with `signIn()`, and GET
 * /auth/options answers `options` (default: none, as a console without single sign-on answers).
 */
function stubBff(signIn: () => Response, options?: SignInOptions) {
  const posts: unknown[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/auth/options') {
      return options ? Response.json(options) : problem({ ...SIGNED_OUT, status: 404 });
    }
    expect(String(input)).toBe('/api/session');
    if (init?.method === 'POST') {
      posts.push(JSON.parse(String(init.body)));
      expect(new Headers(init.headers).get('content-type')).toBe('application/json');
      return signIn();
    }
    return problem(SIGNED_OUT);
  });
  vi.stubGlobal('fetch', fetchMock);
  return posts;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderSignIn(url = '/sign-in') {
  const router = createMemoryRouter(
    [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [url] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider
        router={router}
        flushSync={(update: () => unknown) => void flushSync(update)}
      />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

async function signIn(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.keyboard('{Enter}');
}

describe('SignInPage', () => {
  it('offers the identity provider, coming back to where the person was heading', async () => {
    stubBff(() => problem(SIGNED_OUT), { provider: { name: 'Contoso' }, localSignIn: true });
    renderSignIn('/sign-in?returnTo=%2Faudit%3Fq%3D1');
    const button = await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(button).toHaveAttribute('href', '/auth/sign-in?returnTo=%2Faudit%3Fq%3D1');
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('shows no password form when local sign-in is off', async () => {
    stubBff(() => problem(SIGNED_OUT), { provider: { name: 'Contoso' }, localSignIn: false });
    renderSignIn();
    await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it.each([
    ['idle', /nothing was done in the console for a while/],
    ['signed-out', /You have signed out/],
    ['signed-out-elsewhere', /signed out in another tab/],
    ['ended', /Your session has ended/],
  ] as const)('says why the last session ended (%s), once', (reason, message) => {
    stubBff(() => problem(SIGNED_OUT));
    recordSessionEnd(reason);
    renderSignIn();
    expect(screen.getByRole('status')).toHaveTextContent(message);
    cleanup();
    renderSignIn();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('is ready to type into, with the attributes password managers need', () => {
    stubBff(() => problem(SIGNED_OUT));
    renderSignIn();
    const username = screen.getByLabelText('Username');
    expect(username).toHaveFocus();
    expect(username).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('says the username or password is wrong, clears the password and keeps the name', async () => {
    const posts = stubBff(() =>
      problem({
        type: '/problems/sign-in-failed',
        title: 'Wrong username or password',
        status: 401,
      }),
    );
    renderSignIn();
    await signIn('admin', 'nope');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Wrong username or password. Check both and try again.',
    );
    expect(posts).toEqual([{ username: 'admin', password: 'nope' }]);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getByLabelText('Username')).toHaveValue('admin');
  });

  it('counts down the wait after too many attempts', async () => {
    stubBff(() =>
      problem({
        type: '/problems/sign-in-throttled',
        title: 'Too many failed sign-in attempts',
        status: 429,
        retryAfterSeconds: 8,
      }),
    );
    renderSignIn();
    await signIn('admin', 'guess');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many failed attempts');
    expect(alert).toHaveTextContent(/Try again in 8 seconds\./);
    // A pause of seconds is over before anyone could lift it: nobody to ask.
    expect(alert).not.toHaveTextContent(/ask|unlock/);
  });

  it('says whom to ask when signing in is locked for minutes', async () => {
    stubBff(() =>
      problem({
        type: '/problems/sign-in-throttled',
        title: 'Too many failed sign-in attempts',
        status: 429,
        retryAfterSeconds: 900,
      }),
    );
    renderSignIn();
    await signIn('admin', 'guess');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('signing in is locked for a while');
    expect(alert).toHaveTextContent('ask whoever runs the console to unlock your sign-in');
  });

  it('points a forgotten password at whoever runs the console, not at a page it cannot reach', async () => {
    stubBff(() => problem(SIGNED_OUT));
    renderSignIn();
    expect(
      await screen.findByText(
        /^Forgotten your password or locked out\? Ask whoever runs the console/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/A console administrator can set a new one/)).toBeNull();
  });

  it('goes back to where the user was after signing in', async () => {
    stubBff(() => Response.json({ username: 'admin', role: 'admin', roles: { default: 'admin' } }));
    const { queryClient } = renderSignIn('/sign-in?returnTo=%2Fevent-types%3Fmodule%3DConsent');
    await signIn('admin', 'right-password');
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent('/event-types?module=Consent'),
    );
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual({
      username: 'admin',
      role: 'admin',
      roles: { default: 'admin' },
    });
  });

  it.each(['//evil.example/phish', 'https://evil.example/', '/\\evil.example'])(
    'never follows returnTo=%s off the console',
    async (returnTo) => {
      stubBff(() => Response.json({ username: 'admin', role: 'admin' }));
      renderSignIn(`/sign-in?returnTo=${encodeURIComponent(returnTo)}`);
      await signIn('admin', 'right-password');
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
    },
  );

  it('drops why the last session ended once a sign-in attempt fails', async () => {
    stubBff(() =>
      problem({
        type: '/problems/sign-in-failed',
        title: 'Wrong username or password',
        status: 401,
      }),
    );
    recordSessionEnd('ended');
    renderSignIn();
    expect(screen.getByRole('status')).toHaveTextContent(/Your session has ended/);
    await signIn('admin', 'nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong username or password');
    expect(screen.queryByText(/Your session has ended/)).toBeNull();
  });
});
