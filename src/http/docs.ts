import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context, Middleware } from 'koa';
import type { AppState } from './context.js';
import { selfOnlyPolicy } from './content-security-policy.js';

// The API reference at /docs: Swagger UI (the swagger-ui-dist package) rendering /openapi.json. The page and every
// asset come from this server, out of the installed package, so it works with no internet; the validator badge
// (which would call out to the web) is off. The page is the same for everyone: nothing from the environment,
// the configuration or the request is written into it. Like the ops pages it is served before the API router: it
// is not an API operation, so it is neither in the router's declarations nor in /openapi.json.

export const DOCS_PATH = '/docs';
const SPEC_PATH = '/openapi.json';

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(SPEC_PATH)},
    dom_id: '#docs',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Switchboard API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="docs"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// Scripts only from this origin, and no inline script. Swagger UI sets style attributes and draws icons from data:
// URIs; "Try it out" calls the API on this origin (connect-src).
const CSP = selfOnlyPolicy("'none'");

function send(ctx: Context, type: string, body: string | Buffer, cacheControl: string): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', cacheControl);
  ctx.type = type;
  ctx.body = body;
}

/** GET (and HEAD) /docs and its assets, and / redirected to /docs; every other request passes through. */
export function docsPage(): Middleware<AppState> {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Read on first use and kept: the files of the installed package do not change while the process runs.
  const cache = new Map<string, Buffer>();
  const asset = (name: keyof typeof ASSETS) =>
    cache.get(name) ?? cache.set(name, readFileSync(join(dist, name))).get(name)!;
  const isAsset = (name: string): name is keyof typeof ASSETS => Object.hasOwn(ASSETS, name);

  return async (ctx, next) => {
    // A person who opens the server's address lands on the reference (302: the root may serve more one day).
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.path === '/') {
      ctx.state.routePath = '/';
      ctx.redirect(DOCS_PATH);
      return;
    }
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      (ctx.path !== DOCS_PATH && !ctx.path.startsWith(`${DOCS_PATH}/`))
    )
      return next();
    const name = ctx.path.slice(DOCS_PATH.length + 1);
    if (ctx.path === DOCS_PATH) send(ctx, 'text/html; charset=utf-8', PAGE, 'no-cache');
    else if (name === 'init.js') send(ctx, 'text/javascript; charset=utf-8', INIT_JS, 'no-cache');
    else if (isAsset(name)) send(ctx, ASSETS[name], asset(name), 'public, max-age=3600');
    else return next(); // the router answers 404
    ctx.state.routePath = ctx.path === DOCS_PATH ? DOCS_PATH : `${DOCS_PATH}/:asset`;
  };
}
