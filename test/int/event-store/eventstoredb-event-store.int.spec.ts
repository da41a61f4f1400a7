import { EventStoreDbEventStore } from '../../../src/event-store/eventstoredb/eventstoredb-event-store';
import { multiStreamAppendProblem } from '../../../src/event-store/eventstoredb/server-version';
import { eventStoreContract } from './event-store.contract';

const url = process.env.EVENTSTORE_URL;

if (!url) {
  describe('KurrentDB event store', () => {
    it.skip('skipped: EVENTSTORE_URL is not set (no KurrentDB 25.1+ server on this machine; docker-compose.yml runs one)', () =>
      undefined);
  });
  // eslint-disable-next-line no-console
  console.warn('KurrentDB contract suite skipped: EVENTSTORE_URL is not set');
} else {
  describe('KurrentDB event store', () => {
    eventStoreContract(async () => {
      const store = new EventStoreDbEventStore(url);
      // The same check as at boot, so an old server fails here with its version named.
      const problem = multiStreamAppendProblem(await store.serverVersion());
      if (problem) {
        await store.close();
        throw new Error(`EVENTSTORE_URL ${problem}`);
      }
      return { store, close: () => store.close() };
    });
  });
}
