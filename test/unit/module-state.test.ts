import { readFileSync } from 'node:fs';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { MODULE_STATE_ALLOWED, noModuleState } from '../../scripts/eslint-module-state.js';

// The lint rule that keeps state out of modules (scripts/eslint-module-state.js): what it refuses, what it lets
// through, and an allow-list that names only files that still need it.

const linter = new Linter({ configType: 'flat' });
const config = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { switchboard: { rules: { 'no-module-state': noModuleState } } },
    rules: { 'switchboard/no-module-state': 'error' as const },
  },
];
const problems = (code: string) =>
  linter.verify(code, config, { filename: 'src/example.ts' }).map((m) => `${m.line}: ${m.message}`);

describe('the no-module-state lint rule', () => {
  it('refuses a module-level let or var, and a cache of any kind', () => {
    const found = problems(
      [
        'let count = 0;',
        'export var total = 0;',
        'const memo = new WeakMap<object, number>();',
        'const seen = new Set<string>();',
        'export const rows = new Map<string, number>() as Map<string, number>;',
        'const holder = new WeakRef({});',
      ].join('\n'),
    );
    expect(found).toHaveLength(6);
    expect(found[0]).toMatch(/^1: A module-level `let`/);
    expect(found[2]).toMatch(/^3: A module-level WeakMap is one cache for every runtime/);
  });

  it('refuses a write, inside a function, to an object held by the module or imported from another', () => {
    const found = problems(
      [
        "import { shared } from './elsewhere.js';",
        'const state = { on: false, list: [] as string[] };',
        'export function turnOn() {',
        '  state.on = true;',
        '  shared.count++;',
        '  delete shared.last;',
        "  state.list.push('x');",
        '}',
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(/^4: This writes to `state`/),
      expect.stringMatching(/^5: This writes to `shared`/),
      expect.stringMatching(/^6: This writes to `shared`/),
      expect.stringMatching(/^7: This writes to `state`/),
    ]);
  });

  it('lets through constants, lookup tables declared read-only, and whatever a function builds for itself', () => {
    const found = problems(
      [
        "import { z } from 'zod';",
        "const METHODS: ReadonlySet<string> = new Set(['GET']);",
        'const LIMITS: ReadonlyMap<string, number> = new Map([["a", 1]]);',
        'export function createCache() {',
        '  let hits = 0;',
        '  const rows = new Map<string, number>();',
        '  const state = { on: false };',
        '  state.on = true;',
        '  return { get: (k: string) => (hits++, rows.get(k)), schema: z.set(z.string()) };',
        '}',
        'const METHODS_UPPER = [...METHODS].map((m) => m.toLowerCase());',
        'export const sorted = () => [...METHODS_UPPER].sort();',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });

  it('allows only files that still hold module-level state, each with its reason', () => {
    const stale = Object.entries(MODULE_STATE_ALLOWED).filter(([file, reason]) => {
      expect(reason.length).toBeGreaterThan(20);
      return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).length === 0;
    });
    expect(stale.map(([file]) => file)).toEqual([]);
  });
});
