import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';

// A real headless browser for tests (OAuth consent, docs pages): Debian's chromium driven by playwright-core.
// When /usr/bin/chromium is missing it is installed with apt-get; a test that cannot get one skips with the
// reason (call `await getBrowser()` in beforeAll with a timeout of a few minutes, then `it.skipIf`).

const CHROMIUM = '/usr/bin/chromium';
const run = promisify(execFile);

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

async function installChromium(): Promise<string | null> {
  if (existsSync(CHROMIUM)) return null;
  try {
    // A concurrent install (another test run) holds the dpkg lock: wait for it rather than fail.
    await run('apt-get', ['update', '-qq'], { timeout: 300_000 });
    await run('apt-get', ['install', '-y', '-qq', '-o', 'DPkg::Lock::Timeout=300', 'chromium'], {
      timeout: 600_000,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (err) {
    return `chromium is not installed and apt-get could not install it: ${(err as Error).message.split('\n')[0]}`;
  }
  return existsSync(CHROMIUM) ? null : 'chromium is not installed and apt-get did not provide /usr/bin/chromium';
}

export type BrowserResult = { browser: Browser; skip: null } | { browser: null; skip: string };

/** Launches headless chromium (installing it first if needed), or says why it cannot. */
export async function getBrowser(): Promise<BrowserResult> {
  const problem = await installChromium();
  if (problem) return { browser: null, skip: problem };
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000 });
    return { browser, skip: null };
  } catch (err) {
    return { browser: null, skip: `chromium could not be started: ${(err as Error).message.split('\n')[0]}` };
  }
}
