// The long-lived pieces every call shares, built once by the composition root.
import type { Db } from '../../db/connect';
import type { OpenSnapshot } from '../../db/read-snapshot';
import type { Clock } from './clock';
import type { Log } from './log';
import type { Metrics } from './metrics';
import type { IdempotencyInFlight } from './pipeline/idempotency';
import type { ReceiverAllowList } from './receiver-allow-list';
import type { DeploymentSecrets } from './secrets';
import type { ActivityRecorder } from './storage/activity';
import type { KeyCache } from './storage/key-cache';
import type { OutboxSignal } from './storage/outbox-signal';
import type { RateLimiter } from './storage/rate-counter';
import type { WriteBatcher } from './storage/write-batch';
import type { TicketCodeGuesses } from './ticket-code-guesses';
import type { TokenVerifier } from './token-verifier';

/** How messages leave the service. */
export interface DeliverySettings {
  /** TESSERA_WEBHOOKS_ALLOW_PRIVATE=1: every loopback and private receiver allowed (the test suite's switch). */
  allowPrivate: boolean;
  /** TESSERA_WEBHOOKS_ALLOW: the private receivers the operator allows (none when absent). */
  allow?: ReceiverAllowList;
  /** TESSERA_WEBHOOKS_CA: PEM certificates trusted for deliveries besides Node's own. */
  trustedCa?: readonly string[];
  /** How long one attempt may take. */
  timeoutMs: number;
}

/** E-mail to attendees, when the operator named an SMTP server (TESSERA_SMTP_URL); absent: e-mail is off. */
export interface OutgoingMail {
  /** The sender's address (TESSERA_MAIL_FROM); the event's name is the sender's name. */
  from: string;
  /**
   * The origin ticket links are made from (the server's public origin). Null for an operator command
   * without TESSERA_PUBLIC_URL: it queues no message with links (mailRefused says why).
   */
  publicOrigin: string | null;
}

/**
 * Where the Stripe SDK sends its calls, instead of api.stripe.com: TESSERA_STRIPE_API_URL, for tests
 * against a local stand-in (and stripe-mock). Absent in any real deployment.
 */
export interface StripeApiAddress {
  protocol: 'https' | 'http';
  host: string;
  port: number;
}

export interface Services {
  db: Db;
  /** A snapshot of its own for a long read (core/platform/pipeline/long-read.ts). */
  snapshot: OpenSnapshot;
  /**
   * SQLite: reads of a few milliseconds (a search) on a thread of their own, so the server's thread
   * answers other calls meanwhile (db/reading-thread.ts). Absent on PostgreSQL: read from ctx.db.
   */
  readsAside?: Db;
  clock: Clock;
  log: Log;
  secrets: DeploymentSecrets;
  /** Calls per key (shared by the processes of a PostgreSQL database). */
  rate: RateLimiter;
  /** Ticket codes that named no ticket, per address or key: one limit for every place taking a code. */
  ticketGuesses: TicketCodeGuesses;
  activity: ActivityRecorder;
  /** Every API write goes through it: one transaction per request, commits shared under load. */
  writes: WriteBatcher;
  idempotencyInFlight: IdempotencyInFlight;
  /** Calls a minute for keys that have no limit of their own (TESSERA_RATE_LIMIT). */
  defaultRatePerMinute: number;
  delivery: DeliverySettings;
  /** Raised when a change writes an outbox message. */
  outboxSignal: OutboxSignal;
  /** Verified keys in memory, emptied whenever a key or workspace changes anywhere. */
  keys: KeyCache;
  /** Verifies access tokens from an assistant's sign-in; its issuer is set once the server listens. */
  tokens: TokenVerifier;
  /** Answer a problem an operation does not declare as a fault (the test suite turns this on). */
  strictProblems: boolean;
  /** Absent when e-mail is off: nothing is queued then (core/mail/mail-policy.ts). */
  mail?: OutgoingMail;
  /**
   * An operator command that cannot make a message as the service would (it lacks the service's
   * e-mail settings or its public URL): a change that would queue e-mail is refused with this
   * sentence (409 emailNotSent), in its transaction, so nothing is written. Absent in the server.
   */
  mailRefused?: string;
  /** The origin the public reaches the service at, for links made outside a request (operator commands). */
  publicOrigin?: string;
  /** Counts for /metrics; absent (nothing counted) when the operator did not turn /metrics on. */
  metrics?: Metrics;
  /** Stripe's API elsewhere than api.stripe.com (tests only); absent: Stripe's own. */
  stripeApi?: StripeApiAddress;
  /** TESSERA_CHECKOUT_HOLD_MINUTES: how long a card order holds its places for the buyer's checkout; absent: 30. */
  checkoutHoldMinutes?: number;
}
