// Lint: TypeScript rules, React hooks, and the one-way import zones of docs/architecture.md
// (app -> features -> components/lib -> shared; mocks -> shared; inside the server: entry -> HTTP
// edge -> areas -> infrastructure -> shared), so a wrong arrow fails CI.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const zone = (type) => ({ element: { type } });
const zones = (...types) => ({ element: { types: { anyOf: types } } });
const area = (name) => ({ element: { type: 'server-area', captured: { area: name } } });

// Inside src/server (docs/architecture.md §2). Infrastructure: what any area may stand on.
const SERVER_INFRASTRUCTURE_FOLDERS = [
  'config',
  'store',
  'redis',
  'upstream',
  'governor',
  'http',
  'security',
  'observability',
  'runtime',
];
// Every other folder of src/server is an area: it may import itself and infrastructure, never
// another area's internals. What one area needs of another is a port it declares in its own
// create<Area> deps, filled in by compose.ts; an arrow listed here would be a deliberate exception
// (none is needed today).
const SERVER_AREA_ARROWS = {};
// The HTTP edge: route handlers and the API description and problem pages built from them.
const SERVER_EDGE_FOLDERS = ['routes', 'api-description', 'problem-pages'];

export default tseslint.config(
  {
    ignores: [
      'dist',
      // The reporter's build output (npm pack builds it).
      'packages/*/dist',
      'node_modules',
      'playwright-report',
      'test-results',
      '.data',
      'coverage',
      '.test-services',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain scripts run on Node.
    files: ['**/*.{js,mjs}'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      // Resolve extensionless TypeScript imports with the plain Node resolver (no native addon).
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      // Static imports only: the BFF's single dynamic import of the mock (demo mode) is the
      // sanctioned exception.
      'boundaries/dependency-nodes': ['import', 'export'],
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared' },
        ...SERVER_INFRASTRUCTURE_FOLDERS.map((folder) => ({
          type: 'server-infrastructure',
          pattern: `src/server/${folder}`,
        })),
        ...SERVER_EDGE_FOLDERS.map((folder) => ({
          type: 'server-edge',
          pattern: `src/server/${folder}`,
        })),
        { type: 'server', pattern: 'src/server/cli' },
        // Every other folder is an area (a new folder is one until it is listed above).
        { type: 'server-area', pattern: 'src/server/*', capture: ['area'] },
        // The composition root: what is left in src/server itself (index.ts, main.ts, compose.ts,
        // app.ts, http-server.ts, and replay-thread.ts, the entry it composes for a replay's
        // thread), which no folder above matches, and the CLIs.
        { type: 'server', pattern: 'src/server' },
        { type: 'mocks', pattern: 'src/mocks' },
        { type: 'app', pattern: 'src/app' },
        { type: 'feature', pattern: 'src/features/*', capture: ['featureName'] },
        { type: 'components', pattern: 'src/components' },
        { type: 'lib', pattern: 'src/lib' },
        // The integrations' reporter package: the demo's simulated integrations use it as-is.
        { type: 'reporter', pattern: 'packages/reporter' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: zone('shared'), allow: { to: zone('shared') } },
            {
              from: zone('server'),
              allow: {
                to: zones(
                  'server',
                  'server-edge',
                  'server-area',
                  'server-infrastructure',
                  'shared',
                  'reporter',
                ),
              },
            },
            {
              from: zone('server-edge'),
              allow: { to: zones('server-edge', 'server-area', 'server-infrastructure', 'shared') },
            },
            { from: zone('server-area'), allow: { to: zones('server-infrastructure', 'shared') } },
            {
              from: zone('server-area'),
              allow: {
                to: {
                  element: {
                    type: 'server-area',
                    captured: { area: '{{ from.element.captured.area }}' },
                  },
                },
              },
            },
            // The simulated integrations of demo mode drive the reporter package as-is.
            { from: area('integrations'), allow: { to: zone('reporter') } },
            ...Object.entries(SERVER_AREA_ARROWS).flatMap(([from, tos]) =>
              tos.map((to) => ({ from: area(from), allow: { to: area(to) } })),
            ),
            {
              from: zone('server-infrastructure'),
              allow: { to: zones('server-infrastructure', 'shared') },
            },
            {
              from: zone('mocks'),
              allow: { to: { element: { types: { anyOf: ['mocks', 'shared'] } } } },
            },
            {
              from: zone('app'),
              allow: {
                to: {
                  element: { types: { anyOf: ['app', 'feature', 'components', 'lib', 'shared'] } },
                },
              },
            },
            {
              from: zone('feature'),
              allow: {
                to: { element: { types: { anyOf: ['components', 'lib', 'shared'] } } },
              },
            },
            {
              from: zone('feature'),
              allow: {
                to: {
                  element: {
                    type: 'feature',
                    captured: { featureName: '{{ from.element.captured.featureName }}' },
                  },
                },
              },
            },
            {
              from: zone('components'),
              allow: { to: { element: { types: { anyOf: ['components', 'lib', 'shared'] } } } },
            },
            {
              from: zone('lib'),
              allow: { to: { element: { types: { anyOf: ['lib', 'shared'] } } } },
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may reach across zones to set up their world (a route test starts the mock upstream);
    // so may the processes a test starts (fixtures).
    files: ['**/*.test.{ts,tsx}', 'src/server/test-support/**', 'src/server/**/fixtures/**'],
    rules: { 'boundaries/dependencies': 'off' },
  },
  {
    // The environment is read in one place per program, so every variable is validated, named in
    // an error and documented once: the console's config (which the operator commands in cli/
    // take through its loadEnvironment), the mock platform's config, and the demo identity
    // provider's two settings. Tests and their support set and read it freely.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      'src/server/config/config.ts',
      'src/mocks/config.ts',
      'src/mocks/identity-provider-cli.ts',
      '**/*.test.{ts,tsx}',
      'src/server/test-support/**',
      'src/**/fixtures/**',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment through src/server/config/config.ts (loadEnvironment).',
        },
      ],
    },
  },
  {
    // Shared code runs in the browser and in Node: neither React nor Node built-ins.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'src/shared runs in the browser too.' },
            { regex: '^react', message: 'src/shared holds no UI.' },
          ],
        },
      ],
    },
  },
);
