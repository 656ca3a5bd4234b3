// The first thing the SPA's code does (main.tsx imports this first): ask for what the page at
// this address asks for first, so that the answers travel while React, the router and the page's
// code are evaluated (about 100 ms of the 10,000-row explorer's first load on the bench machine;
// bench/findings/table.md), instead of after them. The loaders take these over (`sendEarly`).
// What needs a session waits for the session's answer (first-requests.ts).
import { sendFirstRequests } from './first-requests';

sendFirstRequests(window.location.pathname);
