import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// A real headless browser for tests (OAuth consent, docs pages): Debian's chromium driven by playwright-core.
// No test installs it: .ci/run does (apt-get install chromium), and a developer does once. A test that cannot get
// one skips with the reason on a developer's machine (call `await getBrowser()` in beforeAll, then skip when it
// says so), and fails under CI=true, where a skipped browser test would pass unseen.

const CHROMIUM = '/usr/bin/chromium';

// Playwright passes --headless and its own fresh, temporary --user-data-dir (removed on close); these are
// the rest of the flags, so no test depends on the network, a GPU, a sandbox or a profile.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type BrowserResult = { browser: Browser; skip: null } | { browser: null; skip: string };

/** Launches headless chromium, or says why it cannot; under CI=true it throws instead, so the test fails. */
export async function getBrowser(): Promise<BrowserResult> {
  const problem = await launch();
  if (typeof problem !== 'string') return { browser: problem, skip: null };
  if (process.env.CI === 'true') throw new Error(`CI=true and no browser: ${problem}`);
  return { browser: null, skip: problem };
}

async function launch(): Promise<Browser | string> {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing: install it with apt-get install chromium (.ci/run does)`;
  try {
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
  } catch (err) {
    return `chromium could not be started: ${(err as Error).message.split('\n')[0]}`;
  }
}
