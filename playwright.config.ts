// End-to-end tests: the built app served by the BFF on a real port, in live mode against the
// mock upstream running as its own HTTP server, driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';
import { ADMIN_STORAGE_STATE, E2E_SESSION_SECRET, E2E_USERS_FILE } from './e2e/e2e-users';

import { E2E_OIDC_CLIENT, E2E_OIDC_DISPLAY_NAME, E2E_OIDC_ISSUER } from './e2e/e2e-identity';
import { E2E_BFF_PORT, E2E_DEMO_BFF_PORT, E2E_MOCK_PORT, E2E_SSO_BFF_PORT } from './e2e/ports';
import { DEMO_ROLE_MAP } from './src/mocks/identity-provider';

const mockUrl = `http://127.0.0.1:${E2E_MOCK_PORT}`;

/** What a live-mode console needs besides its port and stores (the second and fourth servers). */
const LIVE_ENV = {
  UPSTREAM_BASE_URL: mockUrl,
  OAUTH_CLIENT_ID: 'demo-client',
  OAUTH_CLIENT_SECRET: 'demo-secret',
  CONSOLE_USERS_FILE: E2E_USERS_FILE,
  SESSION_SECRET: E2E_SESSION_SECRET,
  // Live mode requires the audit trail's key; a fixed one, for tests only.
  AUDIT_KEY: 'e2e-audit-key-not-for-any-real-deployment-0123',
  LOG_LEVEL: 'warn',
};

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
  projects: [
    // Signs in once as admin; every spec then starts signed in (see e2e/auth.setup.ts).
    { name: 'setup', testMatch: /auth\.setup\.ts$/ },
    {
      name: 'chromium',
      dependencies: ['setup'],
      testIgnore: /auth\.setup\.ts$/,
      use: { storageState: ADMIN_STORAGE_STATE },
    },
  ],
  // Each server's start deadline only bounds a hang: compiling the identity provider with tsx and
  // starting four servers at once takes minutes on a busy machine, seconds on a quiet one.
  webServer: [
    {
      // The bundled mock, as the Docker image runs it (the build comes first in `npm run test:e2e`).
      command: 'node dist/tools/mock-upstream.js',
      url: `${mockUrl}/__mock/stats`,
      env: { MOCK_PORT: String(E2E_MOCK_PORT) },
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
    },
    {
      // Live mode needs console users: the e2e users file is written first.
      command: 'npx tsx e2e/create-users-file.ts && node dist/server/index.js',
      url: `http://127.0.0.1:${E2E_BFF_PORT}/healthz`,
      env: {
        ...LIVE_ENV,
        PORT: String(E2E_BFF_PORT),
        // Every page load reaches the mock, so a fault injected by a test is seen at once.
        EVENT_TYPES_CACHE_SECONDS: '0',
        // Its own incident store: ./.data may be held by a console started by hand.
        DATA_DIR: '.test-results/e2e/live-data',
      },
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
    },
    {
      // Demo mode, with a fresh incident store per run (a block left by the previous run would
      // otherwise be restored and hold the first probe back).
      command:
        "node -e \"require('node:fs').rmSync('.test-results/e2e/demo-data', { recursive: true, force: true })\" && node dist/server/index.js",
      url: `http://127.0.0.1:${E2E_DEMO_BFF_PORT}/healthz`,
      env: {
        PORT: String(E2E_DEMO_BFF_PORT),
        // Empty: demo mode even if a developer's .env names an upstream.
        UPSTREAM_BASE_URL: '',
        DATA_DIR: '.test-results/e2e/demo-data',
        LOG_LEVEL: 'warn',
      },
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
    },
    {
      // The identity provider of the single sign-on specs (e2e/identity.spec.ts).
      command: 'npx tsx e2e/start-identity-provider.ts',
      url: `${E2E_OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
    },
    {
      // A live-mode console signing people in through that provider; local sign-in stays on. Its
      // users file is the live console's: the servers start one after another, in this order.
      command: 'node dist/server/index.js',
      url: `http://127.0.0.1:${E2E_SSO_BFF_PORT}/healthz`,
      env: {
        ...LIVE_ENV,
        PORT: String(E2E_SSO_BFF_PORT),
        DATA_DIR: '.test-results/e2e/sso-data',
        PUBLIC_URL: E2E_OIDC_CLIENT.publicUrl,
        OIDC_ISSUER: E2E_OIDC_ISSUER,
        OIDC_CLIENT_ID: E2E_OIDC_CLIENT.clientId,
        OIDC_CLIENT_SECRET: E2E_OIDC_CLIENT.clientSecret,
        OIDC_DISPLAY_NAME: E2E_OIDC_DISPLAY_NAME,
        OIDC_ROLE_MAP: DEMO_ROLE_MAP,
      },
      reuseExistingServer: !process.env.CI,
      timeout: 300_000,
    },
  ],
});
