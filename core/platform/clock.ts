// The service's notion of now, injectable so tests can move time (expiry, windows, retention).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
