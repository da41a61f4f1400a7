/** Node socket errors that mean the server could not be reached or the connection broke. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** What pg and pg-pool say when a connection cannot be had or was lost; they carry no code. */
const CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|connection terminated|connection error and is not queryable|cannot use a pool after calling end/i;

/**
 * PostgreSQL would not give us a connection, or lost it: SQLSTATE class 08
 * (connection exception) and 53 (insufficient resources: "sorry, too many
 * clients already"), a server shutting down or starting (57P01-03), a statement
 * timeout (57014), a broken socket, or the pool's bounded wait running out.
 * None of these is the request's fault, and each is likely gone in a moment.
 * The one classifier for the read models (through TypeORM) and the event store.
 */
export function isConnectionRefused(error: unknown): boolean {
  return refused(error) || refused((error as { driverError?: unknown } | undefined)?.driverError); // TypeORM wraps pg errors
}

// Duck-typed, not `instanceof Error`: errors raised by Node's sockets may come from another realm (a test sandbox).
function refused(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (/^(08|53)/.test(code) || ['57P01', '57P02', '57P03', '57014'].includes(code)) return true;
    if (SOCKET_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  // A host name with several addresses (localhost: ::1 and 127.0.0.1) fails with all of them.
  return Array.isArray(errors) && errors.length > 0 && errors.every(refused);
}
