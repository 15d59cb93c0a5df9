import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { MODULE_STATE_ALLOWED, noModuleState } from './scripts/eslint-module-state.js';

// One clock (src/platform/clock.ts): every other read of the time goes through its now().
const CLOCK_READS = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Read the clock with now() from src/platform/clock.ts.',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Read the clock with now() from src/platform/clock.ts.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      '.data',
      'dist',
      'coverage',
      'test/typed-client/generated',
      'packages/*/dist',
      'packages/client/src/generated',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The files the block below leaves out still read the clock through now(); that block repeats the rule,
    // because a later block's no-restricted-syntax replaces an earlier one's.
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    ignores: ['src/platform/clock.ts'],
    rules: { 'no-restricted-syntax': ['error', ...CLOCK_READS] },
  },
  {
    // Every string a client sends is built with text() (src/platform/input.ts), which refuses what Postgres
    // cannot store. Config (environment) and job data (our own ids) are not client input.
    files: ['src/**/*.ts'],
    // event-payloads.ts and output.ts (the building blocks of response schemas) describe what the service
    // writes (published as JSON Schema), not what clients send.
    ignores: [
      'src/platform/input.ts',
      'src/platform/output.ts',
      'src/platform/config.ts',
      'src/platform/config-*.ts',
      'src/platform/queues.ts',
      'src/runs/run-executor.ts',
      'src/events/event-payloads.ts',
      'src/platform/clock.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...CLOCK_READS,
        {
          selector:
            "CallExpression[callee.object.name='z'][callee.property.name=/^(string|email|url|httpUrl|uuid|guid|hostname)$/]",
          message:
            'Build client strings with text() or idOf() from src/platform/input.ts: they refuse text Postgres cannot store.',
        },
        {
          selector:
            "CallExpression[callee.object.object.name='z'][callee.object.property.name='coerce'][callee.property.name='string']",
          message: 'Build client strings with text() from src/platform/input.ts.',
        },
      ],
    },
  },
  {
    // State lives in the runtime's Deps, never in a module (scripts/eslint-module-state.js says what is refused).
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    ignores: Object.keys(MODULE_STATE_ALLOWED),
    plugins: { switchboard: { rules: { 'no-module-state': noModuleState } } },
    rules: { 'switchboard/no-module-state': 'error' },
  },
  {
    files: ['bench/**', 'test/**', 'packages/*/test/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
