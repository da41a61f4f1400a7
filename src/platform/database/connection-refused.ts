/**
 * PostgreSQL would not give us a connection: the server is out of connection
 * slots (53300 too_many_connections: "sorry, too many clients already") or not
 * accepting them yet (57P03 cannot_connect_now), nothing listens (ECONNREFUSED),
 * or the pool's bounded wait for a connection ran out. None of these is the
 * request's fault, and each is likely gone in a moment.
 */
export function isConnectionRefused(error: unknown): boolean {
  return refused(error) || refused((error as { driverError?: unknown } | undefined)?.driverError); // TypeORM wraps pg errors
}

const REFUSING_CODES = new Set(['53300', '57P03', 'ECONNREFUSED']);

// pg-pool's wait for a free client, and pg's own connect timeout.
const TIMEOUT_MESSAGES = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

function refused(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && REFUSING_CODES.has(code)) return true;
  if (TIMEOUT_MESSAGES.has(error.message)) return true;
  // A host name with several addresses (localhost: ::1 and 127.0.0.1) fails with all of them.
  return error instanceof AggregateError && error.errors.length > 0 && error.errors.every(refused);
}
