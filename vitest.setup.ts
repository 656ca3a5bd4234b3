// Test setup for the SPA project: DOM matchers and a clean DOM between tests.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
});

// findBy… and waitFor wait for what the page shows, not for a time: their 1 s default is a
// deadline a loaded machine's renders overran, so it only bounds a hang here, as the tests' own.
configure({ asyncUtilTimeout: 10_000 });
