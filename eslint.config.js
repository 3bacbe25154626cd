// Lint is part of the test gate. Besides the usual rules it enforces the layering of ARCHITECTURE.md:
// arrows point down only, and server/ reaches the engine through its facade alone.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const layerZones = [
  { target: './engine', from: './server', message: 'engine/ never imports server/' },
  { target: './engine/store', from: ['./engine/schema', './engine/plan', './engine/exec', './engine/request', './engine/gqlparser'], message: 'store/ knows no GraphQL' },
  { target: './engine/indexes', from: ['./engine/schema', './engine/plan', './engine/exec', './engine/request', './engine/gqlparser', './engine/store'], message: 'indexes/ know no GraphQL' },
  { target: './engine/plan', from: ['./engine/store', './engine/exec'], message: 'plan/ never touches data' },
  { target: './engine/exec', from: ['./engine/custom'], message: 'exec/ calls the custom second stage only through exec/custom-resolver.ts' },
  { target: './engine/schema', from: './engine/request', message: 'schema/ never imports request/ (shared gqlparser wording lives in gqlparser/)' },
  { target: './engine/gqlparser', from: ['./engine/request', './engine/schema'], message: 'gqlparser/ sits below request/ and schema/' },
  {
    target: './server',
    from: './engine',
    except: ['./index.ts', './testing.ts'],
    message: 'server/ reaches the engine only through engine/index.ts',
  },
  {
    // cli/ holds command-line wrappers only; what the running server needs of export lives in export/.
    target: ['./server/*.ts', './server/routes/**', './server/export/**'],
    from: './server/cli',
    message: 'production server code never imports server/cli/ (command-line wrappers only)',
  },
  {
    // Test hooks (I/O faults) enter only through the test-only entry, never the production one.
    target: ['./server/*.ts', './server/routes/**', './server/cli/**', './server/export/**', './engine/**'],
    from: ['./engine/testing.ts', './server/testing'],
    message: 'production code never loads test hooks (engine/testing.ts, server/testing/)',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'snapshots/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    // Sources import `./x.js` for `./x.ts` (NodeNext): without this alias no import resolves, and the
    // path rules below would pass everything unchecked.
    // import-x/parsers lets no-cycle read the imported .ts files (it follows imports through them).
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Tests read untyped JSON responses; `any` keeps their assertions readable.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
