// Lint is part of the test gate. Besides the usual rules it enforces the layering of ARCHITECTURE.md:
// arrows point down only, and server/ reaches the engine through its facade alone.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const layerZones = [
  { target: './engine', from: './server', message: 'engine/ never imports server/' },
  { target: './engine/store', from: ['./engine/schema', './engine/plan', './engine/exec', './engine/request'], message: 'store/ knows no GraphQL' },
  { target: './engine/indexes', from: ['./engine/schema', './engine/plan', './engine/exec', './engine/request', './engine/store'], message: 'indexes/ know no GraphQL' },
  { target: './engine/plan', from: ['./engine/store', './engine/exec'], message: 'plan/ never touches data' },
  {
    target: './server',
    from: './engine',
    except: ['./index.ts'],
    message: 'server/ reaches the engine only through engine/index.ts',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'snapshots/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': 'off',
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
