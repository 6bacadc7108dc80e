// How much the dispatcher has left to do and how late the oldest of it is, for /metrics at scrape
// time. Both reads stay on indexes: the outbox's partial index of waiting messages and that of
// pending deliveries, so a scrape costs little even with a backlog.
import { sql } from 'kysely';
import type { Db } from '../../db/connect';

export interface DeliveryQueue {
  /** Messages not yet fanned out to their receivers. */
  outbox: number;
  /** Deliveries due now (waiting for a place, or being attempted). */
  due: number;
  /** Deliveries waiting for a later retry on the schedule. */
  scheduled: number;
  /** How long the oldest waiting work has been overdue, in seconds (0 when none waits). */
  oldestAgeSeconds: number;
}

export async function deliveryQueue(db: Db, now: Date): Promise<DeliveryQueue> {
  const nowIso = now.toISOString();
  const outbox = await db
    .selectFrom('outbox')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('id').as('first')])
    .where('dispatched_utc', 'is', null)
    .executeTakeFirstOrThrow();
  const first =
    outbox.first === null
      ? undefined
      : await db.selectFrom('outbox').select('created_utc').where('id', '=', outbox.first).executeTakeFirst();
  const deliveries = await db
    .selectFrom('deliveries')
    .select((eb) => [
      eb.fn.countAll<number>().as('pending'),
      eb.fn.sum<number | null>(sql`case when next_attempt_utc <= ${nowIso} then 1 else 0 end`).as('due'),
      eb.fn.min('next_attempt_utc').as('earliest'),
    ])
    // A literal, not a parameter: only then can SQLite use the partial index of pending deliveries.
    .where('state', '=', sql.lit('pending'))
    .executeTakeFirstOrThrow();
  const due = Number(deliveries.due ?? 0);
  const waitingSince = [
    first?.created_utc,
    deliveries.earliest !== null && deliveries.earliest <= nowIso ? deliveries.earliest : undefined,
  ].filter((t): t is string => t !== undefined);
  const oldest =
    waitingSince.length > 0 ? Math.min(...waitingSince.map((t) => Date.parse(t))) : now.getTime();
  return {
    outbox: Number(outbox.waiting),
    due,
    scheduled: Number(deliveries.pending) - due,
    oldestAgeSeconds: Math.max(0, (now.getTime() - oldest) / 1000),
  };
}
