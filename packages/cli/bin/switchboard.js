#!/usr/bin/env node
// The `switchboard` command. In a checkout (src/ is there) it runs the TypeScript through tsx, which the repository's
// development dependencies provide, so `npx switchboard …` at the root runs the code as it is now, built or not;
// installed from the package (bin/ and dist/ only) it runs dist/main.js with plain node
// (docs/adr/0086-the-cli-package.md).
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  // The workspace's packages export their TypeScript under the "@switchboard/source" condition (their default is
  // the built dist/), as `node --conditions=@switchboard/source` would pick (docs/adr/0085-receiver-library.md).
  const { register: registerHooks } = await import('node:module');
  registerHooks(
    'data:text/javascript,export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, "@switchboard/source"] });',
  );
  await import(source.href);
} else {
  await import(new URL('../dist/main.js', import.meta.url).href);
}
