import { describe, expect, it } from 'vitest';
import { loggedPath } from '../../src/http/middleware/request-context.js';

// A portal link's token is a credential in a page's path: the access log writes the path without it.
describe('loggedPath', () => {
  it('cuts a portal token to its prefix, wherever it is in the path, and leaves other paths alone', () => {
    const token = `ca_portal_${'a1B2'.repeat(10)}`;
    expect(loggedPath(`/portal/${token}`)).toBe('/portal/ca_portal_…');
    expect(loggedPath(`/portal/${token}/webhooks/wh_1/deliveries/x`)).toBe(
      '/portal/ca_portal_…/webhooks/wh_1/deliveries/x',
    );
    expect(loggedPath(`/portal/${token}x${token}`)).not.toContain('a1B2');
    expect(loggedPath('/v1/webhooks/wh_1')).toBe('/v1/webhooks/wh_1');
  });
});
