import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from '../helpers/http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// GET /docs: the API reference, rendered by Swagger UI from /openapi.json. Everything it needs comes from this
// server (the browser is refused every other origin, as with no internet), and the page says nothing about the
// environment it runs in.

const OPS = { OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-never-in-docs' };

let t: TestContext;
let api: Client;
beforeAll(async () => {
  t = await createTestContext(OPS);
  api = client(t.url);
});

afterAll(() => t?.close());

const ASSETS = ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js', '/docs/favicon-32x32.png'];

describe('the docs page over HTTP', () => {
  it('is public HTML whose scripts and styles all come from /docs on this server', async () => {
    const res = await api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = res.body as string;
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual([...ASSETS].sort());
    expect(html).not.toMatch(/<script>(?!<\/script>)|\son\w+=/); // no inline script or handler: script-src 'self' allows none
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('serves each asset from the installed package with its type', async () => {
    const types = ['text/css; charset=utf-8', 'text/javascript; charset=utf-8', 'text/javascript; charset=utf-8', 'image/png'];
    for (const [i, path] of ASSETS.entries()) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(types[i]);
      expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(100);
    }
    expect(await (await fetch(`${t.url}/docs/init.js`)).text()).toContain("url: \"/openapi.json\"");
    expect((await api.get('/docs/swagger-ui.js')).status).toBe(404);
    expect((await api.get('/docs/..%2fpackage.json')).status).toBe(404);
  });

  it('reveals no secret and no environment value', async () => {
    const { config } = t.deps;
    const texts = await Promise.all(['/docs', '/docs/init.js'].map(async (p) => (await fetch(t.url + p)).text()));
    for (const text of texts) {
      for (const value of [config.appSecret, OPS.OPS_PASSWORD, OPS.OPS_USERNAME, config.database.url, new URL(config.database.url).pathname.slice(1), config.redis.url, config.bullmqPrefix]) {
        expect(text).not.toContain(value);
      }
    }
  });
});
