import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The SPA's layers (docs/frontend.md): shared (components, hooks, lib, styles, testing) -> features -> app.
// A feature imports the shared layer and itself, never another feature nor app; the shared layer imports no
// feature and not app. Read from the folder, so a new feature is fenced in the day it is created.
const SPA = 'frontend/src';
const FEATURES = readdirSync(new URL(`./${SPA}/features`, import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const SHARED = ['components', 'hooks', 'lib', 'styles', 'testing'].map((dir) => `./${SPA}/${dir}`);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'test-results/**', 'vitest.config.ts', 'vitest.containers.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through the service config (service-kit loadConfig).' }],
    },
  },
  {
    // Plain Node scripts: the start and test scripts, the benches, the container health check.
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/config.ts', '**/test/**', '**/*.test.ts', '**/e2e/**', 'packages/service-kit/src/config/**', 'packages/service-kit/src/testing/**', 'scripts/**', 'bench/**', 'deploy/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // No import cycles in the services (and their benchmarks), the packages or the SPA: a module's dependencies read one way.
    files: ['services/*/src/**/*.ts', 'services/*/bench/**/*.ts', 'packages/*/src/**/*.ts', `${SPA}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['services/*/tsconfig.json', 'packages/*/tsconfig.json', 'frontend/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: [`${SPA}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${SPA}/../tsconfig.json` })] },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...FEATURES.map((name) => ({
              target: `./${SPA}/features/${name}`,
              from: `./${SPA}/features`,
              except: [`./${name}`],
              message: 'Features do not import each other: move what both need into the shared layer (components, hooks, lib), or compose them in app/.',
            })),
            { target: `./${SPA}/features`, from: `./${SPA}/app`, message: 'Features do not import app/: app composes the features.' },
            { target: SHARED, from: [`./${SPA}/features`, `./${SPA}/app`], message: 'The shared layer imports no feature and not app/.' },
          ],
        },
      ],
    },
  },
  {
    files: [`${SPA}/**/*.tsx`],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable table or text must be reachable by keyboard to scroll it (WCAG 2.1.1); it is a labelled region.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
);
