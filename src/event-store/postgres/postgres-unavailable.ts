import { isConnectionRefused } from '../../platform/database/connection-refused';
import { EventStoreUnavailableError } from '../event-store';

/** A connection failure, not a statement's: the store answers it as unavailable. */
export const isPostgresUnavailable = isConnectionRefused;

/** A `.catch` handler: a connection failure becomes EventStoreUnavailableError, anything else goes on as it was. */
export function unavailableIfDisconnected(operation: string): (error: unknown) => never {
  return (error) => {
    if (!isPostgresUnavailable(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EventStoreUnavailableError(`PostgreSQL could not ${operation}: ${reason}`, { cause: error });
  };
}
