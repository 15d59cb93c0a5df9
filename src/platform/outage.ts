// Errors that mean "a backing service is away", not "a bug" and not "bad input": the API answers them 503,
// and a coalesced batch that fails with one does not re-run its items one by one.

const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
]);
// admin_shutdown, cannot_connect_now, connection_failure, sqlclient_unable_to_establish_sqlconnection,
// connection_does_not_exist, too_many_connections, crash_shutdown.
const PG_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08001',
  '08003',
  '08000',
  '53300',
]);

export function isBackendUnavailable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; message?: string } | null | undefined;
  if (!e) return false;
  if (e.code !== undefined && (CONNECTION_CODES.has(e.code) || PG_UNAVAILABLE_CODES.has(e.code))) return true;
  if (e.name === 'KnexTimeoutError') return true;
  // ioredis and node-postgres say so in their messages only.
  return /Stream isn't writeable|Connection is closed|enableOfflineQueue|Connection terminated|Client has encountered a connection error/.test(
    e.message ?? '',
  );
}
