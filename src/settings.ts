// The operating settings, from flags first and the environment second (README: "Settings").
import { resolve } from 'node:path';
import { defaultMailBodyRetentionDays } from '../core/mail';
import { defaultCheckoutHoldMinutes } from '../core/payments';
import type { ReceiverAllowList } from '../core/platform/receiver-allow-list';
import type { StripeApiAddress } from '../core/platform/services';
import { connectionsKeptFromWriters } from '../db/connect';
import { type MailSettings, mailSettingsFrom } from './mail/mail-settings';
import { type MetricsSettings, metricsSettingsFrom } from './metrics/metrics-settings';
import { secretKeyFrom, type TrustedCa, webhooksAllowFrom, webhooksCaFrom } from './webhook-settings';

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL URL (--database, TESSERA_DATABASE_URL); without it the database is DATA/tessera.db. */
  database?: string;
  /** --db-connections, TESSERA_DB_CONNECTIONS: PostgreSQL connections of the process; all but four may write at once. */
  dbConnections?: number;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy: boolean;
  /**
   * The origin the public reaches the service at (https://events.example.org): absolute URLs in
   * answers (event pages, the MCP address) are made from it, never from a request's Host header.
   */
  publicUrl?: string;
  /** Calls a minute for keys without a limit of their own. */
  ratePerMinute: number;
  /** TESSERA_SECRET_KEY (at least 32 bytes): the deployment's key; without it, DATA/instance.key. */
  secretKey?: string;
  /** TESSERA_WEBHOOKS_ALLOW_PRIVATE=1: deliveries may reach every loopback and private address (the test suite's switch). */
  webhooksAllowPrivate: boolean;
  /** TESSERA_WEBHOOKS_ALLOW: the private networks and host names receivers may be at. */
  webhooksAllow: ReceiverAllowList;
  /** TESSERA_WEBHOOKS_CA: certificates trusted for deliveries besides Node's own. */
  webhooksCa: TrustedCa | null;
  logLevel: string;
  /** Failed authentications a minute one source address may make before it is answered 429. */
  authFailuresPerMinute: number;
  /** Registrations one client address may send through public event pages in ten minutes. */
  signUpsPerAddress: number;
  /** TESSERA_SMTP_URL and TESSERA_MAIL_FROM: e-mail to attendees; null when off (no SMTP server named). */
  mail: MailSettings | null;
  /** TESSERA_MAIL_BODY_RETENTION_DAYS: days the e-mail log keeps a message's body (the nightly job purges older ones). */
  mailBodyRetentionDays: number;
  /** TESSERA_METRICS_TOKEN and TESSERA_METRICS_ALLOW: who may read /metrics; null when /metrics is off. */
  metrics: MetricsSettings | null;
  /** TESSERA_STRIPE_API_URL: Stripe's API elsewhere (a test stand-in, stripe-mock); absent: api.stripe.com. */
  stripeApi?: StripeApiAddress;
  /** TESSERA_CHECKOUT_HOLD_MINUTES: how long a card order holds its places for Checkout (30 to 1440; Stripe's limits). */
  checkoutHoldMinutes: number;
}

export class SettingsError extends Error {}

const refuse = (message: string) => new SettingsError(message);

function positiveInt(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535_000)
    throw new SettingsError(`${what} must be a whole number, not "${value}".`);
  return n;
}

export function dataDirFrom(flag: string | undefined, env = process.env): string {
  return resolve(flag || env.TESSERA_DATA || './data');
}

/** The PostgreSQL database, when one is named; SQLite in the data folder otherwise. */
export function databaseFrom(flag: string | undefined, env = process.env): string | undefined {
  const value = flag || env.TESSERA_DATABASE_URL || undefined;
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new SettingsError(
      'The database must be a PostgreSQL URL (postgres://user:password@host:5432/name); without one, the database is tessera.db in the data folder.',
    );
  return value;
}

/** A database URL fit to print: its password left out (PostgreSQL takes one in the query too). */
export function printableDatabase(database: string): string {
  const url = new URL(database);
  if (url.password) url.password = '***';
  if (url.searchParams.has('password')) url.searchParams.set('password', '***');
  return url.toString();
}

/** The fewest connections: one writer and those kept from writers (db/connect.ts). */
const fewestConnections = connectionsKeptFromWriters + 1;
/** PostgreSQL's own default max_connections is 100, shared by every process. */
const mostConnections = 100;

/** PostgreSQL connections of one process, when set; db/connect.ts's default otherwise. */
export function dbConnectionsFrom(flag: string | undefined, env = process.env): number | undefined {
  const value = flag ?? env.TESSERA_DB_CONNECTIONS;
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < fewestConnections || n > mostConnections)
    throw new SettingsError(
      `The database connections (--db-connections, TESSERA_DB_CONNECTIONS) must be a whole number from ${fewestConnections} to ${mostConnections}, not "${value}": all but four carry writes at once; the dispatcher and the mail sender hold one each, and reads and exports share the rest.`,
    );
  return n;
}

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  database?: string;
  dbConnections?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: boolean;
  publicUrl?: string;
}

/** An https origin without path, query or fragment; trailing slash dropped. */
export function publicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`The public URL "${value}" is not an absolute URL.`);
  }
  if (url.protocol !== 'https:') throw new SettingsError('The public URL must be https.');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username)
    throw new SettingsError('The public URL is an origin only: https://host[:port], no path.');
  return url.origin;
}

/**
 * TESSERA_STRIPE_API_URL: where the Stripe SDK sends its calls instead of https://api.stripe.com, for
 * tests against a local stand-in or stripe-mock only (an origin: scheme, host and port).
 */
export function stripeApiFrom(value: string | undefined): StripeApiAddress | undefined {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    (url.pathname !== '/' && url.pathname !== '')
  )
    throw new SettingsError(
      `TESSERA_STRIPE_API_URL must be an origin such as https://localhost:12112 (for tests against a stand-in or stripe-mock), not "${value}".`,
    );
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  const port = url.port ? Number(url.port) : protocol === 'https' ? 443 : 80;
  return { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/**
 * TESSERA_CHECKOUT_HOLD_MINUTES: how long a card order holds its places while the buyer is at
 * Stripe's Checkout; Stripe expires a session 30 minutes to 24 hours after it is made.
 */
export function checkoutHoldFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return defaultCheckoutHoldMinutes;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 30 || minutes > 1440)
    throw new SettingsError(
      `TESSERA_CHECKOUT_HOLD_MINUTES must be a whole number of minutes from 30 to 1440 (Stripe's limits for a Checkout session), not "${value}".`,
    );
  return minutes;
}

export function settingsFrom(flags: ServeFlags, env = process.env): Settings {
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new SettingsError('--tls-cert and --tls-key go together.');
  }
  const port = positiveInt(flags.port ?? env.PORT ?? '8443', 'The port');
  if (port > 65_535) throw new SettingsError('The port must be at most 65535.');
  const ratePerMinute = positiveInt(env.TESSERA_RATE_LIMIT ?? '600', 'TESSERA_RATE_LIMIT');
  if (ratePerMinute < 1) throw new SettingsError('TESSERA_RATE_LIMIT must be at least 1.');
  const authFailuresPerMinute = positiveInt(
    env.TESSERA_AUTH_FAILURE_LIMIT ?? '60',
    'TESSERA_AUTH_FAILURE_LIMIT',
  );
  if (authFailuresPerMinute < 1) throw new SettingsError('TESSERA_AUTH_FAILURE_LIMIT must be at least 1.');
  const signUpsPerAddress = positiveInt(
    env.TESSERA_SIGN_UP_ADDRESS_LIMIT ?? '60',
    'TESSERA_SIGN_UP_ADDRESS_LIMIT',
  );
  if (signUpsPerAddress < 1) throw new SettingsError('TESSERA_SIGN_UP_ADDRESS_LIMIT must be at least 1.');
  const mailBodyRetentionDays = positiveInt(
    env.TESSERA_MAIL_BODY_RETENTION_DAYS ?? String(defaultMailBodyRetentionDays),
    'TESSERA_MAIL_BODY_RETENTION_DAYS',
  );
  if (mailBodyRetentionDays < 1)
    throw new SettingsError(
      'TESSERA_MAIL_BODY_RETENTION_DAYS must be at least 1 (days an e-mail body is kept).',
    );
  return {
    port,
    host: flags.host ?? env.HOST ?? 'localhost',
    dataDir: dataDirFrom(flags.data, env),
    database: databaseFrom(flags.database, env),
    dbConnections: dbConnectionsFrom(flags.dbConnections, env),
    tlsCert: flags.tlsCert,
    tlsKey: flags.tlsKey,
    trustProxy: flags.trustProxy ?? false,
    publicUrl: publicOrigin(flags.publicUrl ?? env.TESSERA_PUBLIC_URL),
    ratePerMinute,
    authFailuresPerMinute,
    signUpsPerAddress,
    secretKey: secretKeyFrom(env, refuse),
    webhooksAllowPrivate: env.TESSERA_WEBHOOKS_ALLOW_PRIVATE === '1',
    webhooksAllow: webhooksAllowFrom(env, refuse),
    webhooksCa: webhooksCaFrom(env, refuse),
    logLevel: env.TESSERA_LOG_LEVEL ?? 'info',
    mail: mailSettingsFrom(env, (message) => new SettingsError(message)),
    mailBodyRetentionDays,
    metrics: metricsSettingsFrom(env, (message) => new SettingsError(message)),
    stripeApi: stripeApiFrom(env.TESSERA_STRIPE_API_URL),
    checkoutHoldMinutes: checkoutHoldFrom(env.TESSERA_CHECKOUT_HOLD_MINUTES),
  };
}
