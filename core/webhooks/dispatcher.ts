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
import { claiming } from '../../db/dialect';
import { insertRows } from '../../db/prepared';
import { readTogether } from '../../db/reads-together';
import type { DeliveryRow } from '../../db/schema';
import type { DeliveryTargetKind } from '../../db/values';
import type { Services } from '../platform/services';
import { ClaimHolder } from '../platform/storage/claim-holder';
import { WorkLoop } from '../platform/work-loop';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Dispatcher {
  /** Attempts being sent: a receiver's place is taken until its answer is in. */
  private readonly inFlight = new Map<number, Promise<void>>();
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
  /** Ends a round's wait for answers early when work is announced meanwhile. */
  private wake: (() => void) | null = null;
  /** When it last ticked (or started), by the services' clock: /readyz tells a wedged dispatcher by it. */
  private lastTickMs: number | null = null;
  private readonly claims: ClaimHolder;
  private readonly loop: WorkLoop;
  private readonly results: AttemptResults;

  constructor(
    private readonly services: Services,
    private readonly options: DispatcherOptions = defaultDispatcherOptions,
  ) {
    this.results = new AttemptResults(services);
    this.claims = new ClaimHolder(services.db, services.log, 'dispatchers', () =>
      this.releaseOrphanedClaims(),
    );
    this.loop = new WorkLoop(
      () => this.round(),
      (err) => this.services.log.error({ err }, 'the webhook dispatcher failed'),
      () => this.wake?.(),
    );
  }

  /** Shows this process alive while it runs, and lets go of claims left by processes that ended. */
  async start(): Promise<void> {
    this.lastTickMs = this.services.clock.now().getTime();
    await this.claims.start();
    this.services.outboxSignal.listen((receiver) => {
      if (receiver) this.receiversWithWork.set(`${receiver.target_kind}:${receiver.target_id}`, receiver);
      this.nudge();
    });
  }

  /** Deliveries claimed by dispatchers that no longer run (a crash, a SIGKILL) are free to take again. */
  private releaseOrphanedClaims(): Promise<unknown> {
    return this.services.writes.run((trx) =>
      trx
        .updateTable('deliveries')
        .set({ claimed_until_utc: null, claimed_by: null })
        .where('state', '=', 'pending')
        .where('claimed_until_utc', 'is not', null)
        .where(this.claims.ownedByEndedProcess(trx))
        .execute(),
    );
  }

  /**
   * A new message: the work starts within coalesceMs, with whatever else came meanwhile. Only the
   * outbox is looked at again; the fan-out names the receivers it gave work (the scheduled tick
   * reads them all, for the retries that came due).
   */
  nudge(): void {
    if (this.loop.isStopped || this.nudged) return;
    this.nudged = setTimeout(() => {
      this.nudged = null;
      this.outboxDirty = true;
      this.loop.announce();
    }, this.options.coalesceMs);
  }

  /** Called on a schedule: starts working when there is work, unless already at it. */
  tick(): void {
    if (this.loop.isStopped) return;
    this.lastTickMs = this.services.clock.now().getTime();
    this.claims.tick();
    this.outboxDirty = true;
    this.receiversStale = true;
    this.loop.announce();
  }

  /** Whether it runs (started, not stopped) and when it last ticked (ms since 1970), for /readyz. */
  get state(): { running: boolean; lastTickMs: number | null } {
    return { running: this.lastTickMs !== null && !this.loop.isStopped, lastTickMs: this.lastTickMs };
  }

  /** Stops taking work and waits for what is in flight. */
  async stop(): Promise<void> {
    const stopping = this.loop.stop();
    if (this.nudged) clearTimeout(this.nudged);
    this.services.outboxSignal.listen(null);
    await stopping;
    await Promise.allSettled(this.inFlight.values());
    await Promise.allSettled(this.writing.values());
    await this.claims.release();
  }

  /**
   * One round: fans out the outbox's new messages and starts the deliveries due; with neither, and
   * answers awaited, waits for one (or for new work). Goes round again until there is nothing to
   * fan out, nothing due and nothing in flight.
   */
  private async round(): Promise<boolean> {
    let fanned = 0;
    if (this.outboxDirty) {
      this.outboxDirty = false;
      fanned = await this.fanOut();
      // A full batch: there may be more.
      if (fanned === this.options.batch) this.outboxDirty = true;
    }
    const started = await this.startDue();
    if (fanned === 0 && started === 0 && !this.loop.announcedSinceRoundBegan) {
      if (this.inFlight.size === 0) return false;
      // A new message does not wait for an answer: it would reach receivers made meanwhile.
      await Promise.race([
        ...this.inFlight.values(),
        sleep(50),
        new Promise<void>((resolve) => {
          this.wake = resolve;
        }),
      ]);
      this.wake = null;
      // Answers arriving together free their places together: claim for them at once.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return true;
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
   * Claims what is due and starts delivering it, receiver by receiver: each receiver's due
   * deliveries are read from its own part of the index, so a receiver with a long backlog (a dead
   * one) takes its few places and never hides the others' work behind its own.
   */
  private async startDue(): Promise<number> {
    let room = this.options.maxInFlight - this.inFlight.size;
    if (room <= 0) return 0;
    // No receiver known to have work and none to look for: no transaction for nothing (on
    // PostgreSQL two round trips after every fan-out of messages no endpoint takes).
    if (!this.receiversStale && this.receiversWithWork.size === 0) return 0;
    const { clock, delivery } = this.services;
    const now = clock.now();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + delivery.timeoutMs + 60_000).toISOString();
    const claimed = await this.services.writes.run(async (trx) => {
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
      const picked: { id: number; target_kind: DeliveryTargetKind; target_id: string }[] = [];
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
          if (this.inFlight.has(d.id) || this.writing.has(d.id)) continue;
          picked.push(d);
          room -= 1;
        }
        if (room <= 0) break;
      }
      if (picked.length === 0) return [];
      await trx
        .updateTable('deliveries')
        .set({ claimed_until_utc: lease, claimed_by: this.claims.instanceId })
        .where(
          'id',
          'in',
          picked.map((d) => d.id),
        )
        .execute();
      return picked;
    });
    // Read before any attempt starts, so the slots below are taken only for what was read.
    const ready = await readClaimed(
      this.services.db,
      claimed.map((d) => d.id),
      nowIso,
    ).catch((err: unknown) => {
      // Left claimed: tried again when the lease runs out.
      this.services.log.error({ err }, 'reading the claimed deliveries failed');
      return [];
    });
    for (const c of ready) {
      const d = c.delivery;
      const key = `${d.target_kind}:${d.target_id}`;
      this.perTarget.set(key, (this.perTarget.get(key) ?? 0) + 1);
      const work = this.deliver(c)
        .catch((err: unknown) =>
          this.services.log.error({ err, deliveryId: d.id }, 'a delivery failed unexpectedly'),
        )
        .finally(() => {
          this.inFlight.delete(d.id);
          const left = (this.perTarget.get(key) ?? 1) - 1;
          if (left > 0) this.perTarget.set(key, left);
          else this.perTarget.delete(key);
        });
      this.inFlight.set(d.id, work);
    }
    return claimed.length;
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
