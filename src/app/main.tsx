// SPA entry: mounts the router inside the app-wide providers, both on one query client.
// First of all, before React is even evaluated: the page's first requests (start-early.ts).
import './start-early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prepareTimeFormat } from '../lib/format';
import { createQueryClient } from '../lib/query-client';
import { isSignInPage } from './first-requests';
import { AppProviders } from './providers';
import { AppRouter, createAppRouter } from './router';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

createRoot(container).render(
  <StrictMode>
    <AppProviders client={queryClient}>
      <AppRouter router={router} />
    </AppProviders>
  </StrictMode>,
);

// The first requests are out and the page's code is on its way: the main thread would only wait
// for the session's answer, so the time formatter is built now, in a task of its own right after
// this one. Not in an idle callback: in traces of cold loads Chromium granted none until after the
// first rows, so the render with the page's data built it after all (bench/findings/table.md and
// lighthouse.md, round five). The sign-in page writes no time and builds none.
if (!isSignInPage(window.location.pathname)) setTimeout(prepareTimeFormat, 0);
