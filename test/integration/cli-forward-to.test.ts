import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';

// `listen --forward-to` takes an http(s) URL or the `localhost:4000/hooks` shorthand; anything else is a usage error
// (exit 2) before anything connects (docs/cli.md#listen). The API here is a TCP listener that counts connections:
// a refusal must leave it untouched.

let api: Server;
let connections = 0;
let env: Record<string, string>;

beforeAll(async () => {
  api = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const { port } = api.address() as { port: number };
  env = { SWITCHBOARD_URL: `http://127.0.0.1:${port}`, SWITCHBOARD_API_KEY: 'ca_acct_unused' };
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

describe('listen --forward-to', () => {
  it('refuses anything but an http(s) URL with exit 2, before connecting to the API', async () => {
    const refused = ['mailto:dev@example.com', 'ftp:/x', '4000', 'ftp://localhost/hooks', 'javascript:alert(1)', ''];
    const results = await Promise.all(refused.map((value) => runCli(['listen', '--forward-to', value], env)));
    for (const [i, r] of results.entries()) {
      expect(r, refused[i]).toMatchObject({ code: 2 });
      expect(r.stderr, refused[i]).toMatch(/^switchboard: --forward-to must be an http\(s\) URL/);
    }
    expect(connections).toBe(0);
  });

  it('keeps the host:port shorthand: it connects, to the API the environment names', async () => {
    // The API here answers nothing, so each run fails after connecting (exit 1): the value itself was accepted.
    const accepted = ['localhost:4000/hooks', '127.0.0.1:4000', '[::1]:4000/x', 'https://example.com/hooks'];
    const results = await Promise.all(accepted.map((value) => runCli(['listen', '--forward-to', value], env)));
    for (const [i, r] of results.entries()) {
      expect(r, accepted[i]).toMatchObject({ code: 1 });
      expect(r.stderr, accepted[i]).toMatch(/^switchboard: could not reach the API/);
    }
    expect(connections).toBe(accepted.length);
  });
});
