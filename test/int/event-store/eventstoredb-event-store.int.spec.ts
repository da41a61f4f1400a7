import { EventStoreDbEventStore } from '../../../src/event-store/eventstoredb/eventstoredb-event-store';
import { eventStoreContract } from './event-store.contract';

const url = process.env.EVENTSTORE_URL;

if (!url) {
  describe('EventStoreDB event store', () => {
    it.skip('skipped: EVENTSTORE_URL is not set (no EventStoreDB server on this machine; docker-compose.yml runs one)', () =>
      undefined);
  });
  // eslint-disable-next-line no-console
  console.warn('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set');
} else {
  describe('EventStoreDB event store', () => {
    eventStoreContract(async () => {
      const store = new EventStoreDbEventStore(url);
      return { store, close: () => store.close() };
    });
  });
}
