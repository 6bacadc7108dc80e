// The dispatcher: takes the messages of the outbox, makes one delivery for each receiver that
// wants them (endpoints of the type, subscriptions of the type and event, made before the message),
// and delivers: signed bodies to endpoints (Standard Webhooks), unsigned ones to subscriptions
// (the data at the top level), personal data redacted per the receiving key's scopes.
//
// At least once, never twice at once: a delivery is claimed (until a lease runs out) in the same
// transaction that picks it (on PostgreSQL locking what it picks and skipping what another process
// holds), so overlapping runs and processes cannot send one attempt twice; its result is
// written after the attempt, so a crash in between sends it again, with the same webhook-id. Each
// receiver has a few deliveries in flight at most, and every delivery its own time-out, so a slow
// or dead receiver never holds up the others.
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { claiming } from '../../db/dialect';
import { insertRows } from '../../db/prepared';
import { readTogether } from '../../db/reads-together';
import type { DeliveryRow } from '../../db/schema';
import type { DeliveryTargetKind } from '../../db/values';
import { type ClaimedJob, ClaimingWorker } from '../platform/claiming-worker';
import type { Services } from '../platform/services';
import { attemptDelivery } from './attempt';
import { AttemptResults } from './attempt-results';
import { type ClaimedDelivery, readClaimed } from './claimed-deliveries';
import { newDelivery } from './delivery-state';
import { takeWaitingMessages } from './waiting-messages';

export interface DispatcherOptions {
  /** Deliveries in flight at once, in all. */
  maxInFlight: number;
  /** Deliveries in flight at once to one receiver. */
  perReceiver: number;
  /** Outbox messages taken in one go. */
  batch: number;
  /**
   * How long a new message waits for others before the fan-out: a burst of changes (a door at
   * opening time) is fanned out in a few transactions rather than one per change.
   */
  coalesceMs: number;
}

export const defaultDispatcherOptions: DispatcherOptions = {
  maxInFlight: 256,
  perReceiver: 16,
  batch: 500,
  coalesceMs: 25,
};

type PickedDelivery = { id: number; target_kind: DeliveryTargetKind; target_id: string };

export class Dispatcher {
  /**
   * Answers being written. The delivery stays claimed until its result is written, so no other
   * run picks it meanwhile; its receiver's place is free again as soon as the answer is in.
   */
  private readonly writing = new Map<number, Promise<void>>();
  private readonly perTarget = new Map<string, number>();
  /** Receivers that had due deliveries when last read (every tick and after each fan-out). */
  private receiversWithWork = new Map<string, { target_kind: DeliveryTargetKind; target_id: string }>();
  private receiversStale = true;
  /** The outbox may hold messages not yet fanned out (set by a tick or a new message). */
  private outboxDirty = true;
  private nudged: NodeJS.Timeout | null = null;
  private readonly worker: ClaimingWorker<PickedDelivery>;
  private readonly results: AttemptResults;

  constructor(
    private readonly services: Services,
    private readonly options: DispatcherOptions = defaultDispatcherOptions,
  ) {
    this.results = new AttemptResults(services);
    this.worker = new ClaimingWorker<PickedDelivery>(services, {
      claimers: 'dispatchers',
      failure: 'the webhook dispatcher failed',
      table: 'deliveries',
      maxInFlight: options.maxInFlight,
      leaseMs: () => services.delivery.timeoutMs + 60_000,
      // Deliveries claimed by dispatchers that no longer run (a crash, a SIGKILL) are free to take again.
      releaseOrphans: (trx, ended) =>
        trx
          .updateTable('deliveries')
          .set({ claimed_until_utc: null, claimed_by: null })
          .where('state', '=', 'pending')
          .where('claimed_until_utc', 'is not', null)
          .where(ended)
          .execute(),
      beforeClaim: () => this.fanOutIfDirty(),
      // No receiver known to have work and none to look for: no transaction for nothing (on
      // PostgreSQL two round trips after every fan-out of messages no endpoint takes).
      mayHaveDue: () => this.receiversStale || this.receiversWithWork.size > 0,
      pickDue: (trx, room, nowIso, busy) => this.pickDue(trx, room, nowIso, busy),
      jobs: (claimed, nowIso) => this.jobs(claimed, nowIso),
      onTick: () => {
        this.outboxDirty = true;
        this.receiversStale = true;
      },
      stillBusy: (id) => this.writing.has(id as number),
      settle: () => Promise.allSettled(this.writing.values()),
    });
  }

  /** Shows this process alive while it runs, and lets go of claims left by processes that ended. */
  async start(): Promise<void> {
    await this.worker.start();
    this.services.outboxSignal.listen((receiver) => {
      if (receiver) this.receiversWithWork.set(`${receiver.target_kind}:${receiver.target_id}`, receiver);
      this.nudge();
    });
  }

  /**
   * A new message: the work starts within coalesceMs, with whatever else came meanwhile. Only the
   * outbox is looked at again; the fan-out names the receivers it gave work (the scheduled tick
   * reads them all, for the retries that came due).
   */
  nudge(): void {
    if (this.worker.isStopped || this.nudged) return;
    this.nudged = setTimeout(() => {
      this.nudged = null;
      this.outboxDirty = true;
      this.worker.announce();
    }, this.options.coalesceMs);
  }

  /** Called on a schedule: starts working when there is work, unless already at it. */
  tick(): void {
    this.worker.tick();
  }

  /** Whether it runs (started, not stopped) and when it last ticked (ms since 1970), for /readyz. */
  get state(): { running: boolean; lastTickMs: number | null } {
    return this.worker.state;
  }

  /** Stops taking work and waits for what is in flight. */
  async stop(): Promise<void> {
    if (this.nudged) clearTimeout(this.nudged);
    this.services.outboxSignal.listen(null);
    await this.worker.stop();
  }

  /** Fans out the outbox's new messages when it may hold some; a full batch leaves it to look again. */
  private async fanOutIfDirty(): Promise<number> {
    if (!this.outboxDirty) return 0;
    this.outboxDirty = false;
    const fanned = await this.fanOut();
    // A full batch: there may be more.
    if (fanned === this.options.batch) this.outboxDirty = true;
    return fanned;
  }

  /**
   * One delivery per receiver for each message of the outbox not yet taken. Answers the messages
   * taken. The receivers given work join the list of those with work at once: reading that list
   * again walks every waiting delivery, which under a backlog cost more than the deliveries did.
   */
  private async fanOut(): Promise<number> {
    const { taken, receivers } = await this.services.writes.run(async (trx, moment) => {
      const now = moment.now().toISOString();
      const messages = await takeWaitingMessages(trx, this.options.batch, now);
      if (messages.length === 0) return { taken: 0, receivers: [] };
      const workspaces = [...new Set(messages.map((m) => m.workspace_id))];
      const { webhooks, hooks } = await readTogether(trx, {
        webhooks: {
          query: trx
            .selectFrom('webhooks')
            .select(['id', 'workspace_id', 'event_types', 'created_utc'])
            .where('workspace_id', 'in', workspaces)
            .where('active', '=', 1),
        },
        hooks: {
          query: trx
            .selectFrom('hooks')
            .select(['id', 'workspace_id', 'event_type', 'event_id', 'created_utc'])
            .where('workspace_id', 'in', workspaces)
            .where('active', '=', 1),
        },
      });
      const typesOf = new Map(webhooks.map((w) => [w.id, new Set(JSON.parse(w.event_types) as string[])]));
      const deliveries = messages.flatMap((m) => {
        const base = {
          workspace_id: m.workspace_id,
          outbox_id: m.id,
          message_id: m.message_id,
          type: m.type,
          payload: null,
        };
        const toWebhooks = webhooks
          .filter(
            (w) =>
              w.workspace_id === m.workspace_id &&
              w.created_utc <= m.created_utc &&
              typesOf.get(w.id)!.has(m.type),
          )
          .map((w) => newDelivery({ ...base, target_kind: 'webhook', target_id: w.id }, now));
        const toHooks = hooks
          .filter(
            (h) =>
              h.workspace_id === m.workspace_id &&
              h.event_type === m.type &&
              (h.event_id === null || h.event_id === m.event_id) &&
              h.created_utc <= m.created_utc,
          )
          .map((h) => newDelivery({ ...base, target_kind: 'hook', target_id: h.id }, now));
        return [...toWebhooks, ...toHooks];
      });
      // Compiled once a shape: a full batch of messages makes hundreds of rows.
      for (let i = 0; i < deliveries.length; i += 100)
        await insertRows(trx, 'deliveries', deliveries.slice(i, i + 100), 'skipConflicts');
      return { taken: messages.length, receivers: deliveries };
    });
    for (const { target_kind, target_id } of receivers)
      this.receiversWithWork.set(`${target_kind}:${target_id}`, { target_kind, target_id });
    return taken;
  }

  /**
   * What is due, receiver by receiver: each receiver's due deliveries are read from its own part
   * of the index, so a receiver with a long backlog (a dead one) takes its few places and never
   * hides the others' work behind its own.
   */
  private async pickDue(
    trx: Db,
    room: number,
    nowIso: string,
    busy: (id: number) => boolean,
  ): Promise<PickedDelivery[]> {
    if (this.receiversStale) {
      this.receiversStale = false;
      const due = await trx
        .selectFrom('deliveries')
        .select(['target_kind', 'target_id'])
        // A literal, not a parameter: only then can SQLite use the partial index of due deliveries.
        .where('state', '=', sql.lit('pending'))
        .where('next_attempt_utc', '<=', nowIso)
        .groupBy(['target_kind', 'target_id'])
        .execute();
      this.receiversWithWork = new Map(due.map((d) => [`${d.target_kind}:${d.target_id}`, d]));
    }
    const picked: PickedDelivery[] = [];
    for (const [key, receiver] of this.receiversWithWork) {
      const free = Math.min(room, this.options.perReceiver - (this.perTarget.get(key) ?? 0));
      if (free <= 0) continue;
      const due = await claiming(
        trx,
        trx
          .selectFrom('deliveries')
          .select(['id', 'target_kind', 'target_id'])
          .where('state', '=', sql.lit('pending'))
          .where('target_kind', '=', receiver.target_kind)
          .where('target_id', '=', receiver.target_id)
          .where('next_attempt_utc', '<=', nowIso)
          .where((eb) => eb.or([eb('claimed_until_utc', 'is', null), eb('claimed_until_utc', '<', nowIso)]))
          .orderBy('next_attempt_utc')
          .limit(free),
      ).execute();
      // Nothing due now: it is looked at again when the list of receivers is next read.
      if (due.length === 0 && !this.perTarget.has(key)) this.receiversWithWork.delete(key);
      for (const d of due) {
        // Its lease ran out by the clock while this process still sends it or writes its result
        // (a clock set forward): it is not sent twice at once.
        if (busy(d.id)) continue;
        picked.push(d);
        room -= 1;
      }
      if (room <= 0) break;
    }
    return picked;
  }

  /** The claimed deliveries read whole, each a job holding its receiver's place until its answer is in. */
  private async jobs(claimed: PickedDelivery[], nowIso: string): Promise<ClaimedJob[]> {
    const ready = await readClaimed(
      this.services.db,
      claimed.map((d) => d.id),
      nowIso,
    ).catch((err: unknown) => {
      // Left claimed: tried again when the lease runs out.
      this.services.log.error({ err }, 'reading the claimed deliveries failed');
      return [];
    });
    return ready.map((c) => {
      const d = c.delivery;
      const key = `${d.target_kind}:${d.target_id}`;
      // Taken now, as the worker starts every job at once: the next pick counts it.
      this.perTarget.set(key, (this.perTarget.get(key) ?? 0) + 1);
      const run = () =>
        this.deliver(c)
          .catch((err: unknown) =>
            this.services.log.error({ err, deliveryId: d.id }, 'a delivery failed unexpectedly'),
          )
          .finally(() => {
            const left = (this.perTarget.get(key) ?? 1) - 1;
            if (left > 0) this.perTarget.set(key, left);
            else this.perTarget.delete(key);
          });
      return { id: d.id, run };
    });
  }

  /** Makes one attempt of a claimed delivery and has its result written. */
  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    const { delivery } = claimed;
    if (claimed.cancel) return this.cancel(delivery);
    const result = await attemptDelivery(this.services, claimed);
    const written = this.results
      .record({ delivery, target: claimed.target, result })
      .catch((err: unknown) =>
        this.services.log.error(
          { err, deliveryId: delivery.id },
          'writing an attempt failed; it is sent again',
        ),
      )
      .finally(() => this.writing.delete(delivery.id));
    this.writing.set(delivery.id, written);
  }

  private cancel(delivery: DeliveryRow): Promise<void> {
    return this.services.writes.run(async (trx, moment) => {
      await trx
        .updateTable('deliveries')
        .set({
          state: 'cancelled',
          claimed_until_utc: null,
          next_attempt_utc: null,
          updated_utc: moment.now().toISOString(),
        })
        .where('id', '=', delivery.id)
        .where('state', '=', 'pending')
        .execute();
    });
  }
}

/** Delivered (or given up) messages older than this are removed, with their deliveries. */
export const keepDeliveredDays = 30;

export async function purgeDelivered(services: Services): Promise<{ deliveries: number; messages: number }> {
  const cutoff = new Date(services.clock.now().getTime() - keepDeliveredDays * 86_400_000).toISOString();
  return services.writes.run(async (trx) => {
    const deliveries = await trx
      .deleteFrom('deliveries')
      .where('state', '!=', 'pending')
      .where('updated_utc', '<', cutoff)
      .executeTakeFirst();
    const messages = await trx
      .deleteFrom('outbox')
      .where('dispatched_utc', '<', cutoff)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('deliveries')
              .select('deliveries.id')
              .whereRef('deliveries.outbox_id', '=', 'outbox.id')
              .where('deliveries.state', '=', 'pending'),
          ),
        ),
      )
      .executeTakeFirst();
    return { deliveries: Number(deliveries.numDeletedRows), messages: Number(messages.numDeletedRows) };
  });
}
