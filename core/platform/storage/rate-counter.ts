// Call counters: a fixed window that opens on the first call counted. One per key, shared by REST
// and MCP; others per source address. In this process's memory here; shared by every process on a
// PostgreSQL database in shared-rate-counter.ts, which rateCounterFor chooses.

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

export interface RateLimiter {
  readonly windowSeconds: number;
  /**
   * Counts one call of `key` against `limit` calls a window; `count` counts that many at once (a
   * request naming several ticket codes), 0 only reads the window.
   */
  take(key: string, limit: number, now: Date, count?: number): RateDecision | Promise<RateDecision>;
  /** Forgets windows that ended, so keys seen once do not stay. */
  sweep(now: Date): void | Promise<void>;
  /**
   * Counts one call of `key` and reads the key generation (key-cache.ts) in the same statement, where
   * the counter is in the database (PostgreSQL: one round trip for both). Decided by the caller
   * (decisionOf) once the key is verified and its limit known.
   */
  countReadingGeneration?(key: string, now: Date): Promise<CountedCall>;
}

/** A call counted in its window, and the key generation read with it. */
export interface CountedCall {
  startedMs: number;
  used: number;
  generation: number;
}

/** The decision for a window that started at `startedMs` and has had `used` calls, this one included. */
export function decisionOf(
  startedMs: number,
  used: number,
  limit: number,
  nowMs: number,
  windowSeconds: number,
): RateDecision {
  return {
    allowed: used <= limit,
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil((startedMs + windowSeconds * 1000 - nowMs) / 1000)),
    windowSeconds,
  };
}

export class RateCounter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly windowSeconds = 60) {}

  take(keyId: string, limit: number, now: Date, count = 1): RateDecision {
    const nowMs = now.getTime();
    const windowMs = this.windowSeconds * 1000;
    let window = this.windows.get(keyId);
    if (!window && this.windows.size >= 10_000) this.sweep(now); // many callers seen once
    if (!window || nowMs - window.startedMs >= windowMs) {
      window = { startedMs: nowMs, used: 0 };
      this.windows.set(keyId, window);
    }
    // A refused call is not counted beyond the limit: the count stays just past it.
    const used = window.used + count;
    const allowed = used <= limit;
    window.used = allowed ? used : Math.max(window.used, limit + 1);
    return decisionOf(window.startedMs, allowed ? used : limit + 1, limit, nowMs, this.windowSeconds);
  }

  /** Forgets windows that ended, so keys seen once do not stay in memory. */
  sweep(now: Date): void {
    const windowMs = this.windowSeconds * 1000;
    for (const [keyId, window] of this.windows) {
      if (now.getTime() - window.startedMs >= windowMs) this.windows.delete(keyId);
    }
  }
}
