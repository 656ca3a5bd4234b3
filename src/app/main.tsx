// SPA entry: mounts the router inside the app-wide providers, both on one query client.
// First of all, before React is even evaluated: the page's first requests (start-early.ts).
import './start-early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prepareTimeFormat } from '../lib/format';
import { createQueryClient } from '../lib/query-client';
import { firstRequests } from './first-requests';
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

// The first requests are out and the page's code is on its way: the main thread would only wait.
// A task of its own right after this one, not an idle callback: in traces of cold loads the idle
// callback fired only after the first rows were drawn, so the first render with data built the
// formatter after all (bench/findings/table.md, round five). The sign-in page writes no time.
if (firstRequests(window.location.pathname).first.length > 0) setTimeout(prepareTimeFormat, 0);
