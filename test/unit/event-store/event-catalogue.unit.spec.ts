import { defineEventCatalogue, EventCatalogue, UndeclaredEventTypeError } from '../../../src/event-store/event-catalogue';
import { recorded } from '../../support/saga';

describe('event catalogue', () => {
  const Things = defineEventCatalogue('things-test', {
    ThingMade: { schemaVersion: 1 },
    ThingRenamed: {
      schemaVersion: 3,
      upcast: (data, from) => (from < 3 ? { label: data.name, ...data, name: undefined } : data),
    },
  });

  it('gives each type its stable stored name and schema version', () => {
    expect(Things.ThingMade).toBe('ThingMade');
    expect(EventCatalogue.schemaVersionOf('ThingRenamed')).toBe(3);
    expect(EventCatalogue.moduleOf('ThingMade')).toBe('things-test');
  });

  it('refuses a type no module declares', () => {
    expect(() => EventCatalogue.schemaVersionOf('NobodysEvent')).toThrow(UndeclaredEventTypeError);
    expect(EventCatalogue.isDeclared('NobodysEvent')).toBe(false);
  });

  it('refuses one type declared by two modules', () => {
    expect(() => defineEventCatalogue('other-test', { ThingMade: { schemaVersion: 1 } })).toThrow(
      /both things-test and other-test/,
    );
  });

  it('upcasts older shapes on read and leaves current ones alone', () => {
    const old = recorded('ThingRenamed', { name: 'a' }, { metadata: { schemaVersion: 2 } });
    expect(EventCatalogue.upcast(old).data).toMatchObject({ label: 'a' });
    const current = recorded('ThingRenamed', { label: 'b' }, { metadata: { schemaVersion: 3 } });
    expect(EventCatalogue.upcast(current)).toBe(current);
  });
});
