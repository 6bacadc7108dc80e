// The service's notion of now, injectable so tests can move time (expiry, windows, retention).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that always answers `at`: a write's moment (core/platform/storage/write-batch.ts). */
export function frozenAt(at: Date): Clock {
  return { now: () => new Date(at) };
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
