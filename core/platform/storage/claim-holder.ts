// What a process that claims queued work (webhook deliveries, e-mail) holds: its instance id, the
// name on its claims, and its liveness lock (db/liveness.ts), by which others tell that it ended.
// Claims of processes that ended (a crash, a SIGKILL) are let go at start and, when other processes
// claim too, every few ticks, rather than when their lease runs out.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/connect';
import { holdLiveness, type Liveness, ownerGone } from '../../../db/liveness';
import { newId } from '../ids';
import type { Log } from '../log';

/** Ticks (seconds) between looks for claims of processes that ended. */
const orphanCheckTicks = 5;

export class ClaimHolder {
  /** Names this process's claims. */
  readonly instanceId = newId();
  private liveness: Liveness | null = null;
  private ticks = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    /** What claims: "dispatchers", "mail senders" (for the log). */
    private readonly claimers: string,
    /** Lets go of the claims of processes that ended (ownedByEndedProcess says which). */
    private readonly releaseOrphans: () => Promise<unknown>,
  ) {}

  /** Shows this process alive while it runs, and lets go of claims left by processes that ended. */
  async start(): Promise<void> {
    this.liveness = await holdLiveness(this.db, this.instanceId);
    await this.releaseOrphans();
  }

  /** Called every tick: every few, when other processes may end, lets go of their claims. */
  tick(): void {
    this.ticks += 1;
    if (this.liveness?.othersMayEnd && this.ticks % orphanCheckTicks === 0)
      this.releaseOrphans().catch((err: unknown) =>
        this.log.error({ err }, `letting go of claims of ended ${this.claimers} failed`),
      );
  }

  async release(): Promise<void> {
    await this.liveness?.release();
  }

  /** A claimed row (its `claimed_by`) whose claimer is not this process and no longer runs, or was never named. */
  ownedByEndedProcess(trx: Db): RawBuilder<boolean> {
    return sql<boolean>`(claimed_by is null or (claimed_by <> ${this.instanceId} and ${ownerGone(trx, 'claimed_by')}))`;
  }
}
