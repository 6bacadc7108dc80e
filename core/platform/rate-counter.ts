// One call counter per key, shared by REST and MCP: a fixed window that opens on the key's first call.

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

interface Window {
  startedMs: number;
  used: number;
}

export class RateCounter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly windowSeconds = 60) {}

  take(keyId: string, limit: number, now: Date): RateDecision {
    const nowMs = now.getTime();
    const windowMs = this.windowSeconds * 1000;
    let window = this.windows.get(keyId);
    if (!window && this.windows.size >= 10_000) this.sweep(now); // many callers seen once
    if (!window || nowMs - window.startedMs >= windowMs) {
      window = { startedMs: nowMs, used: 0 };
      this.windows.set(keyId, window);
    }
    const allowed = window.used < limit;
    if (allowed) window.used += 1;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.used),
      resetSeconds: Math.max(1, Math.ceil((window.startedMs + windowMs - nowMs) / 1000)),
      windowSeconds: this.windowSeconds,
    };
  }

  /** Forgets windows that ended, so keys seen once do not stay in memory. */
  sweep(now: Date): void {
    const windowMs = this.windowSeconds * 1000;
    for (const [keyId, window] of this.windows) {
      if (now.getTime() - window.startedMs >= windowMs) this.windows.delete(keyId);
    }
  }
}
