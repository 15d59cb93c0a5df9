/**
 * A service URL for messages (start-up lines, the banner): its password hidden, whether in the user part or in a
 * `?password=` parameter (libpq reads one). Used for Postgres and Redis alike.
 */
export function withoutPassword(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(unparsable URL)';
  }
  if (u.password) u.password = '***';
  if (u.searchParams.has('password')) u.searchParams.set('password', '***');
  return u.toString();
}
