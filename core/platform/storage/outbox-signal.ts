// Tells the dispatcher a message was written, so a new message leaves within milliseconds of its
// commit instead of at the next scheduled look. The dispatcher reads the outbox through the same
// write queue, after the writing transaction has committed (or rolled back).
export class OutboxSignal {
  private listener: (() => void) | null = null;

  listen(listener: (() => void) | null): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}
