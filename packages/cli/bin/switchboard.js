#!/usr/bin/env node
// The `switchboard` command. Installed from the package it runs dist/main.js with plain node; in a checkout (no dist)
// it runs the TypeScript through tsx, which the repository's development dependencies provide, so
// `npx switchboard …` works right after `npm ci` at the root (docs/adr/0086-the-cli-package.md).
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  // The workspace's packages export their TypeScript under the "development" condition (their default is the
  // built dist/), as `node --conditions=development` would pick.
  const { register: registerHooks } = await import('node:module');
  registerHooks(
    'data:text/javascript,export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, "development"] });',
  );
  await import(new URL('../src/main.ts', import.meta.url).href);
}
