/**
 * ESLint (flat config, issue 23 point 4), run by `npm run lint` and so by `npm test`:
 * - typescript-eslint's recommended rules (not the type-aware ones: the run stays a few seconds);
 * - eslint-plugin-react-hooks (the rules of hooks, exhaustive dependencies) and eslint-plugin-jsx-a11y on the console;
 * - imports flow one way (docs/style.md, "The shape of the dashboard"): `src/api` imports none of the console's folders,
 *   `src/lib` and `src/components` import no feature and not `src/app` (and `src/lib` no component), a feature
 *   imports no other feature, the server imports `src/api` only; and no import cycle anywhere in `src`;
 * - no literal user-facing text in JSX (eslint-plugin-i18next): text and the props a person reads or hears
 *   (labels, titles, placeholders, aria labels) come from the catalogs (src/i18n/).
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url));

/** `import-x/no-restricted-paths` zones: what each folder may not import. */
const zones = [
  { target: './src/api', from: ['./src/lib', './src/components', './src/features', './src/app', './src/embed', './src/i18n'], message: 'src/api is framework-free and imports only itself.' },
  { target: './src/i18n', from: ['./src/components', './src/features', './src/app'], message: 'src/i18n is shared: it imports no component, feature or app module.' },
  { target: './src/lib', from: ['./src/components', './src/features', './src/app'], message: 'src/lib is shared: it imports no component, feature or app module.' },
  { target: './src/components', from: ['./src/features', './src/app'], message: 'src/components is shared: it imports no feature or app module.' },
  { target: './src/embed', from: ['./src/lib', './src/components', './src/features', './src/app'], message: 'The embed page ships no console code.' },
  { target: './server', from: ['./src/lib', './src/components', './src/features', './src/app', './src/embed'], message: 'The server imports only src/api.' },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: ['./src/features', './src/app'],
    except: [`./${name}`],
    message: 'A feature imports no other feature and not src/app: move what two features share to src/lib or src/components.',
  })),
];

/** JSX props a person reads or hears; their literal values must come from a catalog. */
const spokenProps = [
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'alt',
  'title',
  'label',
  'placeholder',
  'description',
  'error',
  'closeButtonLabel',
  'nothingFoundMessage',
  'confirmLabel',
  'cancelLabel',
  'emptyLabel',
  'hint',
  'helpText',
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'data/**', 'public/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The server's tests may check the console's own modules against the server (a feature's search against the
    // service's filter, for example).
    files: ['server/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: zones.filter((zone) => zone.target !== './server') }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, i18next },
    rules: {
      // The rules of hooks and their dependencies; not v7's React Compiler diagnostics (the console is not compiled
      // with the React Compiler).
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      'i18next/no-literal-string': ['error', { mode: 'jsx-only', 'jsx-attributes': { include: spokenProps }, words: { exclude: ['[0-9!-/:-@[-`{-~]+', '[A-Z_-]+', '[▲▼↕«»‹›·…⋯–— ]+'] }, message: 'Text a person reads comes from the catalogs (src/i18n), not a literal' }],
    },
  },
  {
    // A feature's test may check what the feature hands another one against that one's own code (the overview's links
    // against the contacts list's search schema); it still imports nothing of src/app.
    files: ['src/features/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: zones.map((zone) => (zone.target.startsWith('./src/features/') ? { ...zone, from: ['./src/app'], except: [] } : zone)) }],
    },
  },
  {
    // Tests and test helpers name things in English on purpose.
    files: ['**/*.test.{ts,tsx}', 'server/test/**', 'e2e/**', 'bench/**', 'scripts/**'],
    rules: { 'i18next/no-literal-string': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Kysely's migrations are written against `Kysely<any>`, as its documentation does: they outlive the schema type.
    files: ['server/db/migrations.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Playwright's fixtures take their dependencies by destructuring, `{}` when they have none.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
