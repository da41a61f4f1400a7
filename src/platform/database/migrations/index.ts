import { EventStore1763770000000 } from './1763770000000-event-store';

/** Every migration, in order. The server runs the pending ones at start. */
export const MIGRATIONS = [EventStore1763770000000];
