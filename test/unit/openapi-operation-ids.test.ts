import { describe, expect, it } from 'vitest';
import { publicAccess } from '../../src/auth/access.js';
import { buildOpenApiDocument } from '../../src/http/openapi/document.js';
import type { RouteDoc } from '../../src/http/openapi/route-doc.js';
import type { RouteRecord } from '../../src/http/router.js';

// Generated clients name their methods after operationIds: the generator refuses a route without one, one that
// is not camelCase, and a name two routes share.

const route = (path: string, doc: Partial<RouteDoc>): RouteRecord => ({
  method: 'get',
  path,
  access: publicAccess,
  doc: { summary: 'A route', tag: 'Meta', response: null, ...doc } as RouteDoc,
  params: [],
  idempotent: false,
});
const build =
  (...routes: RouteRecord[]) =>
  () =>
    buildOpenApiDocument(routes, 'http://127.0.0.1:3000');

describe('operationIds in the generated document', () => {
  it('are the ones the routes declare', () => {
    const doc = build(route('/a', { operationId: 'getA' }), route('/b', { operationId: 'listBs' }))() as any;
    expect([doc.paths['/a'].get.operationId, doc.paths['/b'].get.operationId]).toEqual(['getA', 'listBs']);
  });

  it('refuses a route without one', () => {
    const withoutOne = build(route('/a', { operationId: 'getA' }), route('/b', {}));
    expect(withoutOne).toThrow(/GET \/b: its RouteDoc needs an operationId/);
  });

  it('refuses one built from a path rather than camelCase', () => {
    expect(build(route('/a', { operationId: 'get_v1_a' }))).toThrow(/GET \/a: .*camelCase/);
    expect(build(route('/a', { operationId: '' }))).toThrow(/GET \/a: .*camelCase/);
  });

  it('refuses a name two routes share, naming both', () => {
    expect(build(route('/a', { operationId: 'getThing' }), route('/b', { operationId: 'getThing' }))).toThrow(
      "GET /b: the operationId getThing is already GET /a's",
    );
  });
});
