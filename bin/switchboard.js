#!/usr/bin/env node
// The `switchboard` command. In the built package it runs dist/src/cli/main.js; in a checkout (no dist) it runs
// the TypeScript through tsx, so `npx switchboard …` works right after `npm install`.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
