// One worker for queued work that processes claim (webhook deliveries, e-mail): a tick or a signal
// starts a round; a round claims what is due, in the transaction that picks it (on PostgreSQL
// locking what it picks and skipping what another process holds), until a lease runs out and named
// by this process (claim-holder.ts), so two processes never take one item; each item runs with at
// most `maxInFlight` at once, and a round with nothing new waits for an answer before looking again.
// Claims of processes that ended are let go at start and every few ticks. What differs (the table,
// what is due, what running one means) is the work's.
import type { Kysely, RawBuilder } from 'kysely';
import type { Db } from '../../db/connect';
import type { Services } from './services';
import { ClaimHolder } from './storage/claim-holder';
import { WorkLoop } from './work-loop';

/** A claimed item ready to run: the worker holds one of its places until `run` settles. */
export interface ClaimedJob {
  id: string | number;
  run: () => Promise<void>;
}

export interface ClaimedWork<Item extends { id: string | number }> {
  /** What claims, for the log: "dispatchers", "mail senders". */
  claimers: string;
  /** Logged when a round fails: "the mail sender failed". */
  failure: string;
  /** The table whose rows are claimed (its claimed_until_utc, claimed_by). */
  table: 'deliveries' | 'mail_messages';
  /** Set on the rows with the claim ({ state: 'sending' }). */
  claimedState?: Record<string, unknown>;
  /** Items at once, in all. */
  maxInFlight: number;
  /** How long a claim holds: longer than running one item may take. */
  leaseMs: () => number;
  /** Lets go of claims of processes that ended (`ended` is true of their rows). */
  releaseOrphans: (trx: Db, ended: RawBuilder<boolean>) => Promise<unknown>;
  /** Work a round does before claiming (the dispatcher's fan-out): answers how much, 0 for none. */
  beforeClaim?: () => Promise<number>;
  /** False when it is known that nothing is due: no transaction is opened for nothing. */
  mayHaveDue?: () => boolean;
  /**
   * Up to `room` due items, read for claiming (db/dialect's `claiming`); `busy` items this process
   * still works on are left out, should their lease have run out by the clock meanwhile.
   */
  pickDue: (trx: Db, room: number, nowIso: string, busy: (id: string | number) => boolean) => Promise<Item[]>;
  /** The claimed items as jobs, read after the claim's transaction (those it cannot read stay claimed). */
  jobs: (claimed: Item[], nowIso: string) => Promise<ClaimedJob[]>;
  /** Told on each tick, before the round it starts. */
  onTick?: () => void;
  /** Whether an item still counts as busy after its place is free (a result being written). */
  stillBusy?: (id: string | number) => boolean;
  /** Waited for on stop, after the items in flight (results still being written). */
  settle?: () => Promise<unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ClaimingWorker<Item extends { id: string | number }> {
  private readonly claims: ClaimHolder;
  private readonly loop: WorkLoop;
  /** Items running: each holds a place until it settles. */
  private readonly inFlight = new Map<string | number, Promise<void>>();
  /** Ends a round's wait for answers early when work is announced meanwhile. */
  private wake: (() => void) | null = null;
  /** When it last ticked (or started), by the services' clock: /readyz tells a wedged worker by it. */
  private lastTickMs: number | null = null;

  constructor(
    private readonly services: Services,
    private readonly work: ClaimedWork<Item>,
  ) {
    this.claims = new ClaimHolder(services.db, services.log, work.claimers, () =>
      services.writes.run((trx) => work.releaseOrphans(trx, this.claims.ownedByEndedProcess(trx))),
    );
    this.loop = new WorkLoop(
      () => this.round(),
      (err) => services.log.error({ err }, work.failure),
      () => this.wake?.(),
    );
  }

  /** Names this process's claims. */
  get instanceId(): string {
    return this.claims.instanceId;
  }

  /** Shows this process alive while it runs, and lets go of claims left by processes that ended. */
  async start(): Promise<void> {
    this.lastTickMs = this.services.clock.now().getTime();
    await this.claims.start();
  }

  /** Called on a schedule: starts working when there is work, unless already at it. */
  tick(): void {
    if (this.loop.isStopped) return;
    this.lastTickMs = this.services.clock.now().getTime();
    this.claims.tick();
    this.work.onTick?.();
    this.loop.announce();
  }

  /** New work (a signal): a round starts, or the running one goes round again. */
  announce(): void {
    this.loop.announce();
  }

  get isStopped(): boolean {
    return this.loop.isStopped;
  }

  /** Whether it runs (started, not stopped) and when it last ticked (ms since 1970), for /readyz. */
  get state(): { running: boolean; lastTickMs: number | null } {
    return { running: this.lastTickMs !== null && !this.loop.isStopped, lastTickMs: this.lastTickMs };
  }

  /** Waits until nothing is due now and nothing is in flight (tests). */
  drained(): Promise<void> {
    return this.loop.drained();
  }

  /** Stops taking work, waits for what is in flight, and lets its claims be known as ended. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
    await this.work.settle?.();
    await this.claims.release();
  }

  /**
   * One round: the work before claiming, then claims and starts what is due; with neither, and
   * answers awaited, waits for one (or for new work). Goes round again until there is nothing to
   * do and nothing in flight.
   */
  private async round(): Promise<boolean> {
    const before = (await this.work.beforeClaim?.()) ?? 0;
    const started = await this.startDue();
    if (before === 0 && started === 0 && !this.loop.announcedSinceRoundBegan) {
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

  /** Claims what is due (as many as there are free places) and starts it. Answers how many it claimed. */
  private async startDue(): Promise<number> {
    const room = this.work.maxInFlight - this.inFlight.size;
    if (room <= 0 || this.work.mayHaveDue?.() === false) return 0;
    const now = this.services.clock.now();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + this.work.leaseMs()).toISOString();
    const busy = (id: string | number) => this.inFlight.has(id) || this.work.stillBusy?.(id) === true;
    const claimed = await this.services.writes.run(async (trx) => {
      const due = (await this.work.pickDue(trx, room, nowIso, busy)).filter((d) => !busy(d.id));
      if (due.length === 0) return [];
      // Any table with claims, by its name: the work's own types hold its rows.
      await (trx as unknown as AnyClaimsDb)
        .updateTable(this.work.table)
        .set({ ...this.work.claimedState, claimed_until_utc: lease, claimed_by: this.claims.instanceId })
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .execute();
      return due;
    });
    if (claimed.length === 0) return 0;
    // Read before any starts, so places are taken only for what was read.
    const jobs = await this.work.jobs(claimed, nowIso).catch((err: unknown) => {
      // Left claimed: taken again when the lease runs out.
      this.services.log.error({ err }, `reading what the ${this.work.claimers} claimed failed`);
      return [];
    });
    for (const job of jobs) {
      const running = job
        .run()
        .catch((err: unknown) =>
          this.services.log.error({ err, id: job.id }, `${this.work.claimers}: an item failed unexpectedly`),
        )
        .finally(() => this.inFlight.delete(job.id));
      this.inFlight.set(job.id, running);
    }
    return claimed.length;
  }
}

type AnyClaimsDb = Kysely<
  Record<string, { id: string | number; claimed_until_utc: string | null; claimed_by: string | null }>
>;
