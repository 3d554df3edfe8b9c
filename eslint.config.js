// ESLint for the whole tree (`npm run lint`). Type-aware rules run on TypeScript through the project service
// (each file is checked with the tsconfig of its folder); plain JavaScript gets the syntax rules only.
// The import bans restate DESIGN.md's arrows so that an editor shows a wrong import where it is written;
// dependency-cruiser (build/dependency-cruiser.cjs) checks the same arrows over the whole graph.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const sqlite = { name: 'better-sqlite3', message: 'Only core/store talks to SQLite (DESIGN.md).' };
const uiPackages = ['electron', 'react', 'react-dom', 'react-dom/*', 'zustand', '@tanstack/*'];

/** One `no-restricted-imports` entry per folder: the arrows of DESIGN.md that an import can break. */
function bannedImports({ paths = [], patterns = [] }) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

/** Focused tests (`it.only`, `describe.only`, `test.describe.only`) silently skip the rest of a suite. */
const focusedTests = [
  {
    selector: "CallExpression > MemberExpression.callee[property.name='only']",
    message: 'A focused test skips every other test: remove `.only`.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'build/types/',
      'build/tsbuildinfo/',
      'build/cache/',
      'release/',
      'artifacts/',
      'test-results/',
      'playwright-report/',
      'docs/screenshots/',
      'bench/.data/',
      '.scratch/',
      '.qk-data/',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-restricted-syntax': ['error', ...focusedTests],
      // Functions that implement a Promise-returning contract (handler tables, transports, fakes) are `async`
      // so that a synchronous throw becomes a rejection; this rule would trade that for Promise.resolve().
      '@typescript-eslint/require-await': 'off',
      // `interface QkClient extends ApiClient {}` is how the client's class gets its generated methods.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      // expect.any(), expect.stringContaining() and the other asymmetric matchers are typed `any` by Vitest and
      // Playwright, so every object a test compares against would be reported.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // `expect(host.call).toHaveBeenCalled()` hands a mock to expect, never calls it unbound.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // DESIGN.md's arrows, folder by folder.
  {
    files: ['core/**'],
    ignores: ['core/store/**'],
    rules: bannedImports({
      paths: [sqlite],
      patterns: [{ group: uiPackages, message: 'core never imports Electron or React (DESIGN.md).' }],
    }),
  },
  {
    files: ['core/store/**'],
    rules: bannedImports({
      patterns: [{ group: uiPackages, message: 'core never imports Electron or React (DESIGN.md).' }],
    }),
  },
  {
    files: ['renderer/**'],
    rules: bannedImports({
      paths: [sqlite],
      patterns: [
        { group: ['node:*'], message: 'The renderer runs in a sandboxed page: no Node modules (DESIGN.md).' },
        { group: ['electron'], message: 'The renderer reaches Electron only through the preload bridge.' },
        {
          group: ['@qk/store', '@qk/engine', '@qk/service', '@qk/client', '@qk/cli', '**/core/*/src/**'],
          message: 'The renderer imports only core/api and core/model, through @qk/api and @qk/model (DESIGN.md).',
        },
      ],
    }),
  },
  {
    files: ['electron/**'],
    rules: bannedImports({ paths: [sqlite] }),
  },
  {
    files: ['renderer/src/**/*.tsx', 'renderer/src/**/use-*.ts'],
    ...reactHooks.configs.flat['recommended-latest'],
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      // Tells which components React Compiler would skip (react-table's hooks); this project does not compile with it.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
