// SPA entry: mounts the router inside the app-wide providers, both on one query client.
// First of all, before React is even evaluated: the page's first requests (start-early.ts).
import './start-early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prepareTimeFormat } from '../lib/format';
import { createQueryClient } from '../lib/query-client';
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
// for the session's answer, so the time formatter is built now, in a task of its own after the
// first render. Not in an idle callback: Chromium granted none until the page had loaded, so the
// render with the page's data built it (bench/findings/lighthouse.md, round five).
setTimeout(prepareTimeFormat, 0);
