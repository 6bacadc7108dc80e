// What core counts for the operator's monitoring: deliveries, e-mails and rate-limit refusals.
// Core only reports; the server counts them with prom-client (src/metrics/server-metrics.ts) when
// /metrics is on, and nothing is counted otherwise.
import type { AttemptOutcome } from '../../db/values';

/** The rate limiters a refusal can come from (low-cardinality label values). */
export type RateLimiterName =
  | 'key'
  | 'authFailure'
  | 'signUpAddress'
  | 'signUpEmail'
  | 'ticketMiss'
  | 'oauthRegistration';

/** What one e-mail attempt came to: sent, to be tried again, given up, or not sent after all. */
export type MailOutcome = 'sent' | 'retrying' | 'failed' | 'cancelled';

export interface Metrics {
  /** One delivery attempt, recorded by the dispatcher. */
  delivery(outcome: AttemptOutcome): void;
  /** One e-mail attempt (or a message cancelled before its attempt), recorded by the mail sender. */
  mail(outcome: MailOutcome): void;
  /** A call refused by a rate limiter. */
  rateLimited(limiter: RateLimiterName): void;
}

/** Counts nothing: commands and servers without /metrics. */
export const noMetrics: Metrics = { delivery() {}, mail() {}, rateLimited() {} };
