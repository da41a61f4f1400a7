import { EventStoreUnavailableError } from '../event-store';

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
 * True for failures of the database connection rather than of the statement:
 * SQLSTATE class 08 (connection exception) and 53 (insufficient resources,
 * such as too many connections), a server shutting down or starting (57P01-03),
 * a statement timeout (57014), a broken socket, or pg-pool giving up.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^(08|53)/.test(code) || ['57P01', '57P02', '57P03', '57014'].includes(code)) return true;
    if (SOCKET_CODES.has(code)) return true;
  }
  return error instanceof Error && CONNECTION_MESSAGES.test(error.message);
}

/** A `.catch` handler: a connection failure becomes EventStoreUnavailableError, anything else goes on as it was. */
export function unavailableIfDisconnected(operation: string): (error: unknown) => never {
  return (error) => {
    if (!isPostgresUnavailable(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EventStoreUnavailableError(`PostgreSQL could not ${operation}: ${reason}`, { cause: error });
  };
}
