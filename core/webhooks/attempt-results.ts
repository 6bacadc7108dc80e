// The attempts' results, written together: what follows from each (done, tried again later, given
// up, or the receiver gone), in one transaction for the results that came in within a couple of
// milliseconds of each other, or while the last group was being written. Receivers answer one by
// one; written as they came, each result was a transaction of its own, and under an event day's
// load their commits were a third of the database's time.

import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { lockingRow } from '../../db/dialect';
import { insertRows } from '../../db/prepared';
import type { DeliveryRow } from '../../db/schema';
import type { AttemptOutcome } from '../../db/values';
import type { Clock } from '../platform/clock';
import { nextAttemptAt } from '../platform/retry-schedule';
import type { Services } from '../platform/services';
import type { Target } from './claimed-deliveries';
import { cancelPendingDeliveries } from './delivery-state';
import type { SendResult } from './sender';

export interface AttemptResult {
  delivery: DeliveryRow;
  target: Target;
  result: SendResult;
}

interface Waiting extends AttemptResult {
  written: () => void;
  failed: (error: unknown) => void;
}

/**
 * The deliveries after their attempts, in one statement: each row's new values from a VALUES list
 * (its columns are column1, column2, … on both stores). One statement a group, where a statement a
 * delivery was a round trip each on PostgreSQL.
 */
function settleDeliveries(
  trx: Db,
  rows: readonly {
    id: number;
    state: DeliveryRow['state'];
    attempts: number;
    lastStatusCode: number | null;
    nextAttemptUtc: string | null;
  }[],
  updatedUtc: string,
) {
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(cast(${r.id} as bigint), cast(${r.state} as text), cast(${r.attempts} as integer), cast(${r.lastStatusCode} as integer), cast(${r.nextAttemptUtc} as text))`,
    ),
  );
  return sql`
    update deliveries set
      state = v.column2, attempts = v.column3, last_status_code = v.column4,
      next_attempt_utc = v.column5, claimed_until_utc = null, updated_utc = ${updatedUtc}
    from (values ${values}) as v
    where deliveries.id = v.column1`.execute(trx);
}

/** Results in one transaction at most. */
const mostAtOnce = 500;

/**
 * How long the first result waits for others: short beside an attempt's own time. The delivery
 * stays claimed meanwhile; its receiver's place is already free (dispatcher.ts).
 */
const gatherMs = 2;

export class AttemptResults {
  private waiting: Waiting[] = [];
  /** Writing, or waiting to: results that come meanwhile join the next group. */
  private busy = false;

  constructor(private readonly services: Services) {}

  /** Resolves once the result is written (a crash before that sends the attempt again). */
  record(attempt: AttemptResult): Promise<void> {
    return new Promise((written, failed) => {
      this.waiting.push({ ...attempt, written, failed });
      if (this.busy) return;
      this.busy = true;
      setTimeout(() => void this.writeWaiting(), gatherMs);
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, mostAtOnce);
      try {
        await this.services.writes.run((trx, moment) => writeResults(trx, moment, group));
        for (const w of group) this.settled(w);
      } catch {
        // One result the store refuses must not lose the others': each is written alone.
        for (const w of group)
          await this.services.writes
            .run((trx, moment) => writeResults(trx, moment, [w]))
            .then(() => this.settled(w), w.failed);
      }
    }
    this.busy = false;
  }

  /** Counted once the attempt is written: a crash before that sends it again, counted then. */
  private settled(w: Waiting): void {
    this.services.metrics?.delivery(w.result.outcome);
    w.written();
  }
}

/** What follows from an attempt: its number, when it is tried next (null: not again) and the delivery's state. */
interface Consequence {
  attempt: number;
  next: string | null;
  state: DeliveryRow['state'];
}

function consequenceOf({ delivery, result }: AttemptResult, now: Date): Consequence {
  const attempt = delivery.attempts + 1;
  const gone = result.outcome === 'gone';
  const next =
    result.outcome === 'succeeded' || gone ? null : nextAttemptAt(attempt, now, result.retryAfterSeconds);
  const state =
    result.outcome === 'succeeded'
      ? ('succeeded' as const)
      : next
        ? ('pending' as const)
        : ('failed' as const);
  return { attempt, next: next?.toISOString() ?? null, state };
}

/** The delivery_attempts rows of the group, started its duration before `now`. */
function attemptRows(group: readonly AttemptResult[], consequences: readonly Consequence[], now: Date) {
  return group.map(({ delivery, result }, i) => ({
    delivery_id: delivery.id,
    attempt: consequences[i]!.attempt,
    started_utc: new Date(now.getTime() - result.durationMs).toISOString(),
    duration_ms: result.durationMs,
    status_code: result.statusCode,
    outcome: result.outcome satisfies AttemptOutcome,
    error: result.error,
    next_attempt_utc: consequences[i]!.next,
  }));
}

/**
 * The receivers the group reached: each endpoint once, with its last result, in the order of their
 * ids; the endpoints and callbacks that answered 410 Gone.
 */
function receiversOf(group: readonly AttemptResult[]) {
  const lastByWebhook = new Map<string, AttemptResult>();
  const goneHooks = new Set<string>();
  for (const attempt of group)
    if (attempt.target.kind === 'webhook') lastByWebhook.set(attempt.target.row.id, attempt);
    else if (attempt.result.outcome === 'gone') goneHooks.add(attempt.target.row.id);
  const goneWebhooks = group
    .filter((a) => a.target.kind === 'webhook' && a.result.outcome === 'gone')
    .map((a) => a.target.row.id);
  const lastResults = [...lastByWebhook].sort(([a], [b]) => (a < b ? -1 : 1));
  return { lastResults, goneWebhooks, goneHooks };
}

/** An endpoint's last result, and its end when it answered 410 Gone. */
function updateEndpoint(trx: Db, id: string, result: SendResult, gone: boolean, nowIso: string) {
  return trx
    .updateTable('webhooks')
    .set({
      last_status: result.outcome === 'succeeded' ? 'succeeded' : 'failed',
      last_delivery_utc: nowIso,
      ...(gone ? { active: 0 as const, disabled_reason: 'gone' as const } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The deliveries' rows of group[from, from + count), after their attempts. */
function settledRows(
  group: readonly AttemptResult[],
  consequences: readonly Consequence[],
  from: number,
  count: number,
) {
  return group.slice(from, from + count).map(({ delivery, result }, j) => ({
    id: delivery.id,
    state: consequences[from + j]!.state,
    attempts: consequences[from + j]!.attempt,
    lastStatusCode: result.statusCode,
    nextAttemptUtc: consequences[from + j]!.next,
  }));
}

async function writeResults(trx: Db, moment: Clock, group: readonly AttemptResult[]): Promise<void> {
  const now = moment.now();
  const nowIso = now.toISOString();
  const consequences = group.map((attempt) => consequenceOf(attempt, now));
  const attempts = attemptRows(group, consequences, now);
  // Each endpoint once, with its last result; a receiver gone afterwards, its waiting deliveries cancelled.
  const { lastResults, goneWebhooks, goneHooks } = receiversOf(group);
  // The endpoints first, in the order of their ids, then their deliveries: another process writing
  // its results updates the same endpoints, and an endpoint's removal (or its key's end) locks it
  // before cancelling its deliveries; in two orders they would wait on each other in a circle until
  // the database ended one (1 s).
  for (const [id, { result }] of lastResults)
    await updateEndpoint(trx, id, result, goneWebhooks.includes(id), nowIso);
  // A callback answering 410 Gone is unsubscribed: held first too, as its removal holds it.
  if (goneHooks.size > 0)
    await lockingRow(
      trx,
      trx
        .selectFrom('hooks')
        .select('id')
        .where('id', 'in', [...goneHooks])
        .orderBy('id'),
    ).execute();
  // In statements of at most 50 rows: few shapes of insert for the statement caches to keep.
  for (let i = 0; i < attempts.length; i += 50)
    await insertRows(trx, 'delivery_attempts', attempts.slice(i, i + 50));
  // In statements of at most 100 rows, as the attempts above.
  for (let i = 0; i < group.length; i += 100)
    await settleDeliveries(trx, settledRows(group, consequences, i, 100), nowIso);
  await cancelPendingDeliveries(trx, moment, 'webhook', [...new Set(goneWebhooks)]);
  if (goneHooks.size > 0) {
    await cancelPendingDeliveries(trx, moment, 'hook', [...goneHooks]);
    await trx
      .deleteFrom('hooks')
      .where('id', 'in', [...goneHooks])
      .execute();
  }
}
