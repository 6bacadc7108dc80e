// When a failed delivery (a webhook message or an e-mail) is tried again: after 5 seconds,
// 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours, 14 hours, 20 hours and 24 hours (ten attempts over about three days and four hours),
// each wait stretched or shrunk by up to a tenth at random so that many receivers failing at once
// are not all tried again at once. A receiver that answers 429 or 503 with Retry-After is not tried
// again before then (up to a day).
export const retryDelaysSeconds = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
export const maxAttempts = retryDelaysSeconds.length + 1;
const maxRetryAfterSeconds = 86_400;

/** When to try again after `attemptsMade` failed attempts; null when it is given up. */
export function nextAttemptAt(
  attemptsMade: number,
  now: Date,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): Date | null {
  const delay = retryDelaysSeconds[attemptsMade - 1];
  if (delay === undefined) return null;
  const jittered = delay * (0.9 + random() * 0.2);
  const wait = Math.max(jittered, Math.min(retryAfterSeconds ?? 0, maxRetryAfterSeconds));
  return new Date(now.getTime() + Math.round(wait * 1000));
}
