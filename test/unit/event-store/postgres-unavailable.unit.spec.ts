import { DatabaseError } from 'pg';
import { EventStoreUnavailableError } from '../../../src/event-store/event-store';
import { isPostgresUnavailable, unavailableIfDisconnected } from '../../../src/event-store/postgres/postgres-unavailable';

const sqlError = (code: string) => Object.assign(new DatabaseError('boom', 0, 'error'), { code });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('PostgreSQL connection failures in the event store', () => {
  it.each([
    ['too many connections (53300)', sqlError('53300')],
    ['connection failure (08006)', sqlError('08006')],
    ['server shutting down (57P01)', sqlError('57P01')],
    ['server starting up (57P03)', sqlError('57P03')],
    ['statement timeout (57014)', sqlError('57014')],
    ['refused socket', socketError('ECONNREFUSED')],
    ['reset socket', socketError('ECONNRESET')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
  ])('counts %s as unavailable', (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', sqlError('23505')],
    ['text it cannot store (22P05)', sqlError('22P05')],
    ['a syntax error (42601)', sqlError('42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['a non-error', 'nope'],
  ])('leaves %s alone', (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
  });

  it('wraps only connection failures, keeping the cause', () => {
    const lost = socketError('ECONNREFUSED');
    expect(() => unavailableIfDisconnected('append')(lost)).toThrow(EventStoreUnavailableError);
    try {
      unavailableIfDisconnected('append')(lost);
    } catch (error) {
      expect((error as Error).cause).toBe(lost);
      expect((error as Error).message).toBe('PostgreSQL could not append: connect ECONNREFUSED 127.0.0.1:5432');
    }
    const conflict = sqlError('23505');
    expect(() => unavailableIfDisconnected('append')(conflict)).toThrow(conflict);
  });
});
