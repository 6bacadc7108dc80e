// Builds the long-lived services: the migrated database, deployment secrets, rate counter,
// activity recorder, write queue and the access-token verifier.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogEvent } from 'kysely';
import { type Clock, systemClock } from '../core/platform/clock';
import { type Log, silentLog } from '../core/platform/log';
import type { Metrics } from '../core/platform/metrics';
import { IdempotencyInFlight } from '../core/platform/pipeline/idempotency';
import { deriveSecrets } from '../core/platform/secrets';
import type { DeliverySettings, Services } from '../core/platform/services';
import { ActivityRecorder } from '../core/platform/storage/activity';
import { KeyCache } from '../core/platform/storage/key-cache';
import { OutboxSignal } from '../core/platform/storage/outbox-signal';
import { rateCounterFor } from '../core/platform/storage/shared-rate-counter';
import { WriteBatcher, writeLanes } from '../core/platform/storage/write-batch';
import { ticketCodeGuesses } from '../core/platform/ticket-code-guesses';
import { tokenVerifier } from '../core/platform/token-verifier';
import { checkSecretKey } from '../core/webhooks';
import { migrateToLatest, openDatabase } from '../db/connect';
import { SettingsError } from './settings';
import { loadSigningKeys, publicKeys } from './signing-keys';

/** How long a webhook or callback receiver has to answer one attempt. */
export const deliveryTimeoutMs = 10_000;

export interface OpenServices {
  services: Services;
  close(): Promise<void>;
}

/** The data folder and what is in it are the operator's alone: 0700 and 0600. */
function privateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/**
 * The deployment's base secret: TESSERA_SECRET_KEY, else one generated once into the data folder
 * (instance.key, 0600). Cursors, cookies and webhook signing secrets' encryption derive from it.
 */
function baseSecret(dataDir: string, secretKey: string | undefined): Buffer {
  if (secretKey) return Buffer.from(secretKey, 'utf8');
  const file = instanceKeyFile(dataDir);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

function instanceKeyFile(dataDir: string): string {
  return join(dataDir, 'instance.key');
}

/** Refuses a start whose key is not the one the webhook signing secrets were encrypted under. */
async function refuseAnotherKey(services: Services, dataDir: string, secretKey: string | undefined) {
  const check = await checkSecretKey(services.db, services.secrets.webhookSecretKey, services.clock.now());
  if (check !== 'otherKey') return;
  const source = secretKey ? 'TESSERA_SECRET_KEY' : `the data folder's key, ${instanceKeyFile(dataDir)}`;
  throw new SettingsError(
    `The webhook signing secrets in this database were encrypted under another key than this start's (${source}); starting would leave every delivery unsigned. Put the old key back (the TESSERA_SECRET_KEY it had, or the instance.key of the data folder it was made with), or re-encrypt the secrets under this key: tessera secrets rekey --from-key-file OLD_KEY_FILE (if the old key is lost: tessera secrets rekey --discard-unreadable, then give each endpoint a new secret).`,
  );
}

/**
 * The database file is made 0600 before SQLite opens it; SQLite gives its WAL and shared-memory
 * files the permissions of the database file.
 */
function privateDatabaseFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

export async function openServices(options: {
  dataDir: string;
  /** A PostgreSQL URL; without it, tessera.db in the data folder. */
  database?: string;
  /** PostgreSQL's connections of this process (TESSERA_DB_CONNECTIONS); db/connect.ts's default otherwise. */
  dbConnections?: number;
  ratePerMinute: number;
  secretKey?: string;
  clock?: Clock;
  log?: Log;
  delivery?: Partial<DeliverySettings>;
  /** The server's: WAL checkpoints on a thread of their own (one-off commands checkpoint as they go). */
  backgroundCheckpoints?: boolean;
  /** false: open even with another key than the webhook secrets' (secrets rekey, which mends that). */
  keyCheck?: false;
  /** The server's counts for /metrics, with the database's statement timings; absent: nothing counted. */
  metrics?: Metrics & { queryLog: (event: LogEvent) => void };
  /** TESSERA_STRIPE_API_URL: Stripe's API elsewhere (tests only). */
  stripeApi?: Services['stripeApi'];
  /** TESSERA_CHECKOUT_HOLD_MINUTES: a card order's hold; absent: core's default. */
  checkoutHoldMinutes?: number;
}): Promise<OpenServices> {
  privateDataDir(options.dataDir);
  const file = options.database ?? join(options.dataDir, 'tessera.db');
  if (!options.database) privateDatabaseFile(file);
  const log = options.log ?? silentLog;
  const { db, snapshot, readsAside, writers, close } = openDatabase(file, {
    ...(options.backgroundCheckpoints ? { backgroundCheckpoints: log, serving: true } : {}),
    queryLog: options.metrics?.queryLog,
    connections: options.dbConnections,
    connectionLost: (error) =>
      log.warn({ err: error }, 'PostgreSQL ended a connection; another is opened when needed'),
  });
  await migrateToLatest(db);
  const clock = options.clock ?? systemClock;
  // SQLite one writer with group commit; PostgreSQL several transactions in flight, each taking
  // its change position and its moment in turn (write-batch.ts), so updatedSince misses nothing.
  const writes = new WriteBatcher(db, writeLanes(writers), clock);
  const activity = new ActivityRecorder(writes, log);
  const services: Services = {
    db,
    snapshot,
    ...(readsAside ? { readsAside } : {}),
    clock,
    log,
    secrets: deriveSecrets(baseSecret(options.dataDir, options.secretKey)),
    rate: rateCounterFor(db, 'key'),
    ticketGuesses: ticketCodeGuesses(db),
    activity,
    writes,
    idempotencyInFlight: new IdempotencyInFlight(),
    defaultRatePerMinute: options.ratePerMinute,
    delivery: {
      allowPrivate: false,
      timeoutMs: deliveryTimeoutMs,
      ...options.delivery,
    },
    outboxSignal: new OutboxSignal(),
    keys: new KeyCache(),
    tokens: tokenVerifier(publicKeys(await loadSigningKeys(options.dataDir))),
    strictProblems: process.env.TESSERA_STRICT_PROBLEMS === '1',
    metrics: options.metrics,
    ...(options.stripeApi ? { stripeApi: options.stripeApi } : {}),
    ...(options.checkoutHoldMinutes ? { checkoutHoldMinutes: options.checkoutHoldMinutes } : {}),
  };
  const closeAll = async () => {
    await activity.flush();
    await close();
  };
  if (options.keyCheck !== false)
    await refuseAnotherKey(services, options.dataDir, options.secretKey).catch(async (error) => {
      await closeAll();
      throw error;
    });
  return { services, close: closeAll };
}
