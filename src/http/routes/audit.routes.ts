import { requireScope } from '../../auth/access.js';
import { listAudit, toAuditResponse } from '../../audit/audit.repository.js';
import { auditResponse } from '../../audit/audit.schema.js';
import { listNotifications, toNotificationResponse } from '../../notifications/notifications.repository.js';
import { notificationResponse } from '../../notifications/notifications.schema.js';
import type { Deps } from '../../app/deps.js';
import { pageOf } from '../../platform/output.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerAuditRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/logs',
    requireScope('read:account'),
    {
      operationId: 'listAuditLog',
      summary: 'List the audit log',
      tag: 'Account',
      query: pageQuery,
      response: pageOf(auditResponse),
    },
    async (ctx) => {
      const page = await listAudit(deps.db, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
      ctx.body = mapPage(page, toAuditResponse);
    },
  );

  api.get(
    '/v1/notifications',
    requireScope('read:account'),
    {
      operationId: 'listNotifications',
      summary: 'List notifications',
      tag: 'Account',
      query: pageQuery,
      response: pageOf(notificationResponse),
    },
    async (ctx) => {
      const page = await listNotifications(deps.db, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
      ctx.body = mapPage(page, toNotificationResponse);
    },
  );
}
