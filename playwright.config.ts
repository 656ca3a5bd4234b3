// End-to-end tests: the built app served by the BFF on a real port, in live mode against the
// mock upstream running as its own HTTP server, driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';

export const E2E_MOCK_PORT = 8798;
export const E2E_BFF_PORT = 8797;
const mockUrl = `http://127.0.0.1:${E2E_MOCK_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.test-results/playwright.json' },
    ],
  ],
  use: {
    baseURL: `http://127.0.0.1:${E2E_BFF_PORT}`,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      command: 'npx tsx src/mocks/server.ts',
      url: `${mockUrl}/__mock/stats`,
      env: { MOCK_PORT: String(E2E_MOCK_PORT) },
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: 'npx tsx src/server/index.ts',
      url: `http://127.0.0.1:${E2E_BFF_PORT}/healthz`,
      env: {
        PORT: String(E2E_BFF_PORT),
        UPSTREAM_BASE_URL: mockUrl,
        OAUTH_CLIENT_ID: 'demo-client',
        OAUTH_CLIENT_SECRET: 'demo-secret',
        // Every page load reaches the mock, so a fault injected by a test is seen at once.
        EVENT_TYPES_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
      },
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
