// Lint: TypeScript rules, React hooks, and the one-way import zones of docs/architecture.md
// (app -> features -> components/lib -> shared; server -> shared; mocks -> shared), so a wrong
// arrow fails CI.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const zone = (type) => ({ element: { type } });

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
              allow: { to: { element: { types: { anyOf: ['server', 'shared', 'reporter'] } } } },
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
    // Tests may reach across zones to set up their world (a route test starts the mock upstream).
    files: ['**/*.test.{ts,tsx}', 'src/server/test-support/**'],
    rules: { 'boundaries/dependencies': 'off' },
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
