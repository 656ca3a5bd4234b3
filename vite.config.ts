/// <reference types="vitest/config" />
// Build and dev server for the SPA, and the unit-test projects (jsdom for the SPA, node for the
// BFF and the mock).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const bffPort = process.env.PORT ?? '8787';

// React Router's package.json points every import at its development build, whatever the mode
// (remix-run/react-router#14102), so a production bundle ran its development checks and warnings on
// the main thread at every start. The build takes its production files instead; the dev server
// and the tests keep the development build and its warnings.
const REACT_ROUTER_PRODUCTION = [
  {
    find: /^react-router$/,
    replacement: fileURLToPath(
      new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url),
    ),
  },
  {
    find: /^react-router\/dom$/,
    replacement: fileURLToPath(
      new URL('node_modules/react-router/dist/production/dom-export.mjs', import.meta.url),
    ),
  },
];

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: command === 'build' ? { alias: REACT_ROUTER_PRODUCTION } : {},
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // In development the browser talks to Vite, which forwards /api (and the problem types'
    // explanations, /problems) to the BFF: same origin from the browser's point of view, as in
    // production.
    proxy: {
      '/api': { target: `http://127.0.0.1:${bffPort}`, changeOrigin: false },
      '/problems': { target: `http://127.0.0.1:${bffPort}`, changeOrigin: false },
    },
  },
  test: {
    // Deadlines that only bound a hang: no test here asserts how long anything took (timing is the
    // bench's). Rendering a page in jsdom or reading a store takes milliseconds at rest and
    // seconds beside other work on two cores, where the 5 s default failed tests that were right.
    // Tests that start processes set their own, longer deadline (test-support/process-deadline.ts).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a test observes; its 1 s default is such a deadline too.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/{server,mocks,shared}/**/*.test.ts',
            'scripts/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser-ui',
          environment: 'jsdom',
          include: ['src/{app,features,components,lib}/**/*.test.{ts,tsx}'],
          setupFiles: ['./vitest.setup.ts'],
        },
      },
    ],
  },
}));
