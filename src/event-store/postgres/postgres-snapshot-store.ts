import { Pool } from 'pg';
import { Snapshot, SnapshotStore } from '../snapshot-store';

interface SnapshotRow {
  revision: string;
  event_id: string;
  schema_version: number;
  state: unknown;
}

/**
 * Snapshots in the read-model database (`stream_snapshots`), whichever store
 * holds the log: like the read models, they can be thrown away and rebuilt.
 */
export class PostgresSnapshotStore extends SnapshotStore {
  constructor(private readonly pool: Pool) {
    super();
  }

  async load(streamId: string): Promise<Snapshot | null> {
    const { rows } = await this.pool.query<SnapshotRow>({
      name: 'svc-snapshot-load',
      text: 'SELECT revision, event_id, schema_version, state FROM stream_snapshots WHERE stream_id = $1',
      values: [streamId],
    });
    const row = rows[0];
    if (!row) return null;
    return { streamId, revision: Number(row.revision), eventId: row.event_id, version: row.schema_version, state: row.state };
  }

  async save(snapshot: Snapshot): Promise<void> {
    await this.pool.query({
      name: 'svc-snapshot-save',
      text: `INSERT INTO stream_snapshots (stream_id, revision, event_id, schema_version, state, taken_at)
             VALUES ($1, $2, $3, $4, $5::jsonb, now())
             ON CONFLICT (stream_id) DO UPDATE
               SET revision = EXCLUDED.revision, event_id = EXCLUDED.event_id, schema_version = EXCLUDED.schema_version,
                   state = EXCLUDED.state, taken_at = EXCLUDED.taken_at
             WHERE stream_snapshots.revision < EXCLUDED.revision`,
      values: [snapshot.streamId, snapshot.revision, snapshot.eventId, snapshot.version, JSON.stringify(snapshot.state)],
    });
  }

  async discard(snapshot: Snapshot): Promise<void> {
    await this.pool.query('DELETE FROM stream_snapshots WHERE stream_id = $1 AND revision = $2 AND event_id = $3', [
      snapshot.streamId,
      snapshot.revision,
      snapshot.eventId,
    ]);
  }
}
