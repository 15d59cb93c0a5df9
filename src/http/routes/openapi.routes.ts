import { publicAccess } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import { jsonRecord } from '../../platform/output.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import type { ApiRouter } from '../router.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document of this router, built on first request (every route is registered
 * by then) and kept per public URL. Public: it holds the routes and schemas, never configuration or secrets.
 */
export function registerOpenApiRoutes(api: ApiRouter, _deps: Deps) {
  const built = new Map<string, Record<string, unknown>>();
  api.get(
    '/openapi.json',
    publicAccess,
    { operationId: 'getOpenApiDocument', summary: 'This OpenAPI 3.1 document', tag: 'Meta', response: jsonRecord() },
    (ctx) => {
      const { publicUrl } = ctx.state;
      let doc = built.get(publicUrl);
      if (!doc) built.set(publicUrl, (doc = buildOpenApiDocument(api.routes, publicUrl)));
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = doc;
    },
  );
}
