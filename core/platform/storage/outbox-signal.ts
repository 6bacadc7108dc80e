// Tells the dispatcher a message was written, so a new message leaves within milliseconds of its
// commit instead of at the next scheduled look. The dispatcher reads the outbox through the same
// write queue, after the writing transaction has committed (or rolled back).
// A delivery written without a message (a test message) names its receiver, so the dispatcher
// knows it has work without reading every waiting delivery to find out.
export interface SignalledReceiver {
  target_kind: 'webhook' | 'hook';
  target_id: string;
}

export class OutboxSignal {
  private listener: ((receiver?: SignalledReceiver) => void) | null = null;

  listen(listener: ((receiver?: SignalledReceiver) => void) | null): void {
    this.listener = listener;
  }

  notify(receiver?: SignalledReceiver): void {
    this.listener?.(receiver);
  }
}
