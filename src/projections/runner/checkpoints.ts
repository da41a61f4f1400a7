import { EntityManager } from 'typeorm';
import { LogPosition } from '../../event-store/log-position';

export interface CheckpointRow {
  name: string;
  position: LogPosition;
  rebuildRequested: boolean;
}

/** Reads and writes `processor_checkpoints`, always through the caller's transaction or connection. */
export const Checkpoints = {
  async ensure(db: EntityManager, name: string): Promise<void> {
    await db.query('INSERT INTO processor_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
  },

  async lock(tx: EntityManager, name: string): Promise<CheckpointRow> {
    const rows = await tx.query(
      `SELECT name, commit_position::text AS commit, prepare_position::text AS prepare, rebuild_requested
         FROM processor_checkpoints WHERE name = $1 FOR UPDATE`,
      [name],
    );
    return toRow(rows[0]);
  },

  async read(db: EntityManager, name: string): Promise<CheckpointRow> {
    const rows = await db.query(
      `SELECT name, commit_position::text AS commit, prepare_position::text AS prepare, rebuild_requested
         FROM processor_checkpoints WHERE name = $1`,
      [name],
    );
    return toRow(rows[0]);
  },

  async readAll(db: EntityManager): Promise<CheckpointRow[]> {
    const rows = await db.query(
      `SELECT name, commit_position::text AS commit, prepare_position::text AS prepare, rebuild_requested
         FROM processor_checkpoints ORDER BY name`,
    );
    return rows.map(toRow);
  },

  async save(tx: EntityManager, name: string, position: LogPosition): Promise<void> {
    await tx.query(
      `UPDATE processor_checkpoints
          SET commit_position = $2, prepare_position = $3, updated_at = now()
        WHERE name = $1`,
      [name, position.commit.toString(), position.prepare.toString()],
    );
  },

  /**
   * Moves the checkpoint from `from` to `to` in one statement, and says whether it was still at `from`: false
   * means another runner moved it, and the caller's transaction must not commit what it applied.
   */
  async advance(db: EntityManager, name: string, from: LogPosition, to: LogPosition): Promise<boolean> {
    const [, moved] = await db.query(
      `UPDATE processor_checkpoints
          SET commit_position = $2, prepare_position = $3, updated_at = now()
        WHERE name = $1 AND commit_position = $4 AND prepare_position = $5`,
      [name, to.commit.toString(), to.prepare.toString(), from.commit.toString(), from.prepare.toString()],
    );
    return moved === 1;
  },

  async reset(tx: EntityManager, name: string): Promise<void> {
    await tx.query(
      `UPDATE processor_checkpoints
          SET commit_position = 0, prepare_position = 0, rebuild_requested = false, updated_at = now()
        WHERE name = $1`,
      [name],
    );
  },

  async requestRebuild(db: EntityManager, name: string): Promise<void> {
    await Checkpoints.ensure(db, name);
    await db.query('UPDATE processor_checkpoints SET rebuild_requested = true WHERE name = $1', [name]);
  },
};

function toRow(row: { name: string; commit: string; prepare: string; rebuild_requested: boolean } | undefined): CheckpointRow {
  if (!row) throw new Error('checkpoint row missing');
  return {
    name: row.name,
    position: new LogPosition(BigInt(row.commit), BigInt(row.prepare)),
    rebuildRequested: row.rebuild_requested,
  };
}
