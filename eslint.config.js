import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', '.data', 'dist', 'coverage', 'test/typed-client/generated'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // Every string a client sends is built with text() (src/platform/input.ts), which refuses what Postgres
    // cannot store. Config (environment) and job data (our own ids) are not client input.
    files: ['src/**/*.ts'],
    // event-payloads.ts and output.ts (the building blocks of response schemas) describe what the service
    // writes (published as JSON Schema), not what clients send.
    ignores: ['src/platform/input.ts', 'src/platform/output.ts', 'src/platform/config.ts', 'src/platform/queues.ts', 'src/runs/run-executor.ts', 'src/events/event-payloads.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='z'][callee.property.name=/^(string|email|url|httpUrl|uuid|guid|hostname)$/]",
          message: 'Build client strings with text() or idOf() from src/platform/input.ts: they refuse text Postgres cannot store.',
        },
        {
          selector: "CallExpression[callee.object.object.name='z'][callee.object.property.name='coerce'][callee.property.name='string']",
          message: 'Build client strings with text() from src/platform/input.ts.',
        },
      ],
    },
  },
  {
    files: ['bench/**', 'test/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
