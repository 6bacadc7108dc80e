// One loop at a time doing queued work (the webhook dispatcher's, the mail sender's): a tick or a
// new piece of work starts it, or has the running loop go round once more before it ends, so work
// announced while a round was reading is never left for the next tick.

export class WorkLoop {
  private running: Promise<void> | null = null;
  private announced = false;
  private stopped = false;

  constructor(
    /** One round of the work: answers whether to go round again (it did some, or waits for some). */
    private readonly round: () => Promise<boolean>,
    /** Where a round's failure is reported; the next announcement starts the loop again. */
    private readonly failed: (err: unknown) => void,
    /** Told when work is announced while a round runs (a round waiting for answers may stop waiting). */
    private readonly onAnnounced: () => void = () => {},
  ) {}

  /** Starts the loop, or has the running one go round again before it ends. */
  announce(): void {
    if (this.stopped) return;
    if (this.running) {
      this.announced = true;
      this.onAnnounced();
      return;
    }
    this.running = this.loop()
      .catch(this.failed)
      .finally(() => {
        this.running = null;
      });
  }

  /** Whether work was announced since this round began. */
  get announcedSinceRoundBegan(): boolean {
    return this.announced;
  }

  /** Whether it was stopped: a round checks before taking more. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Waits until the loop has nothing left to do (tests). */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the running round. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.announced = false;
      if (!(await this.round()) && !this.announced) return;
    }
  }
}
