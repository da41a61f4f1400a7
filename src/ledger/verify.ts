import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Progress } from './progress';

export interface BrokenLink {
  streamId: string;
  revision: number;
  kind: 'edited' | 'deleted' | 'inserted' | 'missing_tail';
  detail: string;
}

export interface VerifyReport {
  streams: number;
  events: number;
  broken: BrokenLink[];
}

interface Row {
  stream_id: string;
  revision: string;
  event_id: string | null;
  type: string | null;
  data: string | null;
  metadata: string | null;
  chained_event_id: string | null;
  link: string | null;
  head: string | null;
}

const BATCH = 5_000;

interface StreamState {
  id: string;
  previousLink: string;
  nextRevision: number;
  broken: boolean;
  head: number | null;
}

/** The link the insert trigger computes (migration 1764020000000), recomputed here from the event's stored text. */
export function chainLink(
  previous: string,
  e: { eventId: string; streamId: string; revision: number; type: string; data: string; metadata: string },
): string {
  return createHash('sha256')
    .update([previous, e.eventId, e.streamId, String(e.revision), e.type, e.data, e.metadata].join('|'), 'utf8')
    .digest('hex');
}

/**
 * Walks every money stream's events beside the links kept for them, in
 * stream order: an event whose content no longer gives its link was edited;
 * a link with no event, or a gap in the revisions, was deleted; an event with
 * no link was inserted behind the service (with triggers off); a stream head
 * past the last event lost its tail. Each stream reports its first break.
 */
export async function verifyMoneyStreams(db: DataSource, progress?: Progress, batchSize = BATCH): Promise<VerifyReport> {
  const report: VerifyReport = { streams: 0, events: 0, broken: [] };
  let after: [string, string] = ['', '-1'];
  let stream = null as StreamState | null;
  const closeStream = () => {
    if (stream && !stream.broken && stream.head !== null && stream.head >= stream.nextRevision)
      report.broken.push({
        streamId: stream.id,
        revision: stream.nextRevision,
        kind: 'missing_tail',
        detail: `the stream's head is revision ${stream.head} but its events end at ${stream.nextRevision - 1}`,
      });
  };
  for (;;) {
    // A page of events by the (stream, revision) index, and the links up to its last key; then the two side by side.
    const rows: Row[] = await db.query(
      `WITH e AS (
         SELECT stream_id, revision, event_id, type, data::text AS data, metadata::text AS metadata
           FROM events
          WHERE is_money_stream(stream_id) AND (stream_id, revision) > ($1, $2::bigint)
          ORDER BY stream_id, revision
          LIMIT ${batchSize}),
       last_event AS (SELECT stream_id, revision FROM e ORDER BY stream_id DESC, revision DESC LIMIT 1),
       c AS (
         SELECT stream_id, revision, event_id, link
           FROM money_stream_chain
          WHERE (stream_id, revision) > ($1, $2::bigint)
            AND (NOT EXISTS (SELECT 1 FROM last_event) OR (stream_id, revision) <= (SELECT stream_id, revision FROM last_event))
          ORDER BY stream_id, revision
          -- bounded by the last event's key; past the last event, a page at a time
          LIMIT (SELECT CASE WHEN count(*) = 0 THEN ${batchSize} END FROM last_event))
       SELECT coalesce(e.stream_id, c.stream_id) AS stream_id, coalesce(e.revision, c.revision) AS revision,
              e.event_id, e.type, e.data, e.metadata, c.event_id AS chained_event_id, c.link, s.revision AS head
         FROM e FULL JOIN c ON c.stream_id = e.stream_id AND c.revision = e.revision
         LEFT JOIN streams s ON s.stream_id = coalesce(e.stream_id, c.stream_id)
        ORDER BY 1, 2`,
      after,
    );
    if (rows.length === 0) break;
    progress?.advance(rows.length);
    for (const row of rows) {
      const revision = Number(row.revision);
      if (stream?.id !== row.stream_id) {
        closeStream();
        stream = {
          id: row.stream_id,
          previousLink: '',
          nextRevision: 0,
          broken: false,
          head: row.head === null ? null : Number(row.head),
        };
        report.streams++;
      }
      report.events++;
      if (stream.broken) continue;
      const fail = (kind: BrokenLink['kind'], detail: string) => {
        report.broken.push({ streamId: row.stream_id, revision, kind, detail });
        stream!.broken = true;
      };
      if (revision !== stream.nextRevision) {
        fail(
          'deleted',
          `revision ${stream.nextRevision}${revision - 1 > stream.nextRevision ? `-${revision - 1}` : ''} is gone, event and link`,
        );
        continue;
      }
      if (row.event_id === null) {
        fail('deleted', `event ${row.chained_event_id} is gone; its link remains`);
        continue;
      }
      if (row.link === null) {
        fail('inserted', `event ${row.event_id} (${row.type}) has no link: it was inserted behind the service's back`);
        continue;
      }
      const recomputed = chainLink(stream.previousLink, {
        eventId: row.event_id,
        streamId: row.stream_id,
        revision,
        type: row.type!,
        data: row.data!,
        metadata: row.metadata!,
      });
      if (recomputed !== row.link || row.chained_event_id !== row.event_id) {
        fail('edited', `event ${row.event_id} (${row.type}) no longer matches its link: its content was changed`);
        continue;
      }
      stream.previousLink = row.link;
      stream.nextRevision = revision + 1;
    }
    const last = rows[rows.length - 1];
    after = [last.stream_id, last.revision];
  }
  closeStream();
  progress?.finish();
  return report;
}
