import { multiStreamAppendProblem, parseServerVersion } from '../../../src/event-store/eventstoredb/server-version';

describe('the KurrentDB server version check', () => {
  it.each([
    ['25.1.0', { major: 25, minor: 1 }],
    ['25.1', { major: 25, minor: 1 }],
    ['24.10.0-rc.1', { major: 24, minor: 10 }],
    ['26.0.2.1234', { major: 26, minor: 0 }],
    ['unknown', null],
    ['25', null],
    ['', null],
  ])('reads %j as %j', (reported, expected) => {
    expect(parseServerVersion(reported)).toEqual(expected);
  });

  it.each(['25.1.0', '25.1.4', '25.10.0', '26.0.0', '26.1.1', '100.0.0'])('accepts %s', (reported) => {
    expect(multiStreamAppendProblem(reported)).toBeNull();
  });

  it('refuses 24.10 with a message naming both versions', () => {
    expect(multiStreamAppendProblem('24.10.0')).toBe(
      'points at KurrentDB/EventStoreDB 24.10; multi-stream appends need KurrentDB 25.1 or later',
    );
  });

  it.each(['25.0.1', '24.10.4', '23.10.0', '20.10.5', '9.99.0'])('refuses %s', (reported) => {
    expect(multiStreamAppendProblem(reported)).toMatch(/need KurrentDB 25\.1 or later$/);
  });

  it('refuses a server that reports no usable version, quoting what it said', () => {
    expect(multiStreamAppendProblem('unknown')).toBe(
      'points at a KurrentDB/EventStoreDB server that reports no usable version ("unknown"); multi-stream appends need KurrentDB 25.1 or later',
    );
  });
});
