// Key activity: every call (refused ones too) per key, kept 90 days. Entries are buffered and
// written in batches so recording never adds a write to the hot path.
import type { Db } from '../../../db/connect';
import { insertRows } from '../../../db/prepared';
import type { Clock } from '../clock';
import { addDays } from '../clock';
import type { Log } from '../log';
import type { WriteBatcher } from './write-batch';

export const activityRetentionDays = 90;

export interface CallRecord {
  workspaceId: string;
  apiKeyId: string;
  atUtc: string;
  transport: 'rest' | 'mcp';
  /** Route template (GET /api/v1/events/{eventId}) or MCP tool name; never the query or body. */
  operation: string;
  /** ok, or the problem code that answered. */
  outcome: string;
  status: number;
  durationMs: number;
  source: string | null;
}

export class ActivityRecorder {
  private buffer: CallRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    // Through the write queue, in line with every other write: on PostgreSQL a flush of its own
    // beside it would hold back the change feed's pages until it ends (write-batch.ts).
    private readonly writes: Pick<WriteBatcher, 'run'>,
    private readonly log: Log,
    private readonly flushEveryMs = 1000,
    private readonly maxBuffered = 500,
  ) {}

  record(entry: CallRecord): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.maxBuffered) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushEveryMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.buffer;
    this.buffer = [];
    // A failed write loses these records but must not stop the next flush: it is logged instead.
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .catch((err: unknown) =>
        this.log.error({ err, records: batch.length }, 'key activity could not be recorded'),
      );
    return this.flushing;
  }

  private async write(batch: CallRecord[]): Promise<void> {
    if (batch.length === 0) return;
    const lastUse = new Map<string, string>();
    for (const e of batch) lastUse.set(e.apiKeyId, e.atUtc);
    await this.writes.run(async (trx) => {
      for (let i = 0; i < batch.length; i += 100) {
        await insertRows(
          trx,
          'key_activity',
          batch.slice(i, i + 100).map((e) => ({
            workspace_id: e.workspaceId,
            api_key_id: e.apiKeyId,
            at_utc: e.atUtc,
            transport: e.transport,
            operation: e.operation,
            outcome: e.outcome,
            status: e.status,
            duration_ms: Math.round(e.durationMs * 100) / 100,
            source: e.source,
          })),
        );
      }
      // In the order of their ids, so two processes flushing at once never wait on each other in
      // a circle; and never back in time (the other process may have written a later call).
      for (const [keyId, at] of [...lastUse].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await trx
          .updateTable('api_keys')
          .set({ last_used_utc: at })
          .where('id', '=', keyId)
          .where((eb) => eb.or([eb('last_used_utc', 'is', null), eb('last_used_utc', '<', at)]))
          .execute();
      }
    });
  }
}

/** Removes key activity older than the retention period; run daily by the scheduler. */
export async function purgeKeyActivity(db: Db, clock: Clock): Promise<number> {
  const cutoff = addDays(clock.now(), -activityRetentionDays).toISOString();
  const result = await db.deleteFrom('key_activity').where('at_utc', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
