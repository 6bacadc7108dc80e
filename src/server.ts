// Starts the service: database and demonstration workspace, TLS (or a trusted proxy), the Koa
// app, and the scheduled jobs. Returns its addresses and a way to stop it cleanly.
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { demoKey, ensureDemoWorkspace } from '../core/admin';
import { MailSender } from '../core/mail';
import { preloadWhenConnected } from '../core/payments';
import type { Clock } from '../core/platform/clock';
import type { DeliverySettings, Services } from '../core/platform/services';
import {
  Dispatcher,
  type DispatcherOptions,
  defaultDispatcherOptions,
  deliveryQueue,
} from '../core/webhooks';
import { buildApp } from './app';
import { answerClientErrors } from './http/client-errors';
import { type TlsPort, tlsPort } from './http/tls-port';
import { startJobs } from './jobs';
import { listenRefusal } from './listen-refusal';
import { createLogger, type Logger } from './logger';
import { smtpTransport } from './mail/smtp-transport';
import type { MetricsSettings } from './metrics/metrics-settings';
import { readiness } from './metrics/readiness';
import { ServerMetrics } from './metrics/server-metrics';
import { oauthProvider } from './oauth/provider';
import { type OpenServices, openServices } from './services';
import type { Settings } from './settings';
import { loadSigningKeys } from './signing-keys';
import { loadTls } from './tls';

export interface RunningServer {
  /** https://host:port the server listens at. */
  origin: string;
  /** The origin absolute URLs in answers are made from (--public-url, else the listening origin). */
  publicOrigin: string;
  restUrl: string;
  mcpUrl: string;
  port: number;
  demoKey: string;
  certFile: string | null;
  services: Services;
  /** Delivers the outbox's messages; null when started without one. */
  dispatcher: Dispatcher | null;
  /** Sends the queued e-mail; null when e-mail is off (TESSERA_SMTP_URL unset) or without scheduled jobs. */
  mailSender: MailSender | null;
  close(): Promise<void>;
}

/** How long a client may take: an API request is small, so a slow one is cut off. */
export interface Timeouts {
  /** Until the request's headers are in (default 10 s). */
  headersMs: number;
  /** Until the whole request, body included, is in (default 30 s). */
  requestMs: number;
}

export const defaultTimeouts: Timeouts = { headersMs: 10_000, requestMs: 30_000 };

/** What startServer may be told besides the settings (tests use each). */
export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  timeouts?: Timeouts;
  /** Delivery settings other than the defaults (tests shorten the time-out). */
  delivery?: Partial<DeliverySettings>;
  /** The dispatcher's limits, or false to run without one (tests that inspect the outbox). */
  dispatcher?: Partial<DispatcherOptions> | false;
  /** false: no scheduled work (tests that run a job themselves, at a moment of their choosing). */
  scheduledJobs?: false;
}

type Metrics = { counts: ServerMetrics; settings: MetricsSettings } | null;

/** The server that takes the connections, and what listens: the TLS front, or the server itself. */
interface Front {
  server: Server;
  listener: Server | NetServer;
  /** Ends TLS in front of the server; null behind a trusted proxy. */
  tlsFront: TlsPort | null;
  certFile: string | null;
}

/** The work that runs beside the requests: delivery, e-mail and the scheduled jobs. */
interface BackgroundWork {
  dispatcher: Dispatcher | null;
  mailSender: MailSender | null;
  jobs: { stop(): void };
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  // Counted only when someone may read the counts (/metrics is on).
  const metrics = settings.metrics ? { counts: new ServerMetrics(), settings: settings.metrics } : null;
  const opened = await openServicesToServe(settings, options, logger, metrics);
  const { services } = opened;
  let publicOrigin = settings.publicUrl ?? '';
  // The app is built once the port is known (it makes links from the listening origin).
  let handler: RequestListener = (_req, res) => res.end();
  const front = await createFront(
    settings,
    options.timeouts ?? defaultTimeouts,
    (req, res) => handler(req, res),
    () => publicOrigin,
    logger,
  );
  const port = await listen(front.listener, settings, opened);
  const origin = `https://${hostForUrl(settings.host)}:${port}`;
  publicOrigin = settings.publicUrl ?? origin;
  // Tokens are issued by this origin and name its /mcp and /api/v1 as their audiences.
  services.tokens.issuer = publicOrigin;
  // Links made outside a request (operator commands run in tests against this server's services).
  services.publicOrigin = publicOrigin;
  const app = await buildServingApp(settings, options, services, logger, metrics, origin, publicOrigin);
  handler = app.handler;
  const { dispatcher } = app;
  const work = await startBackgroundWork(settings, options, services, logger, dispatcher, publicOrigin);
  return {
    origin,
    publicOrigin,
    restUrl: `${publicOrigin}/api/v1`,
    mcpUrl: `${publicOrigin}/mcp`,
    port,
    demoKey: demoKey.key,
    certFile: front.certFile,
    services,
    dispatcher,
    mailSender: work.mailSender,
    close: () => closeInOrder(work, front, opened),
  };
}

/** Opens the database and the services on it, with the demonstration workspace in place. */
async function openServicesToServe(
  settings: Settings,
  options: StartOptions,
  logger: Logger,
  metrics: Metrics,
): Promise<OpenServices> {
  const opened = await openServices({
    dataDir: settings.dataDir,
    database: settings.database,
    dbConnections: settings.dbConnections,
    ratePerMinute: settings.ratePerMinute,
    secretKey: settings.secretKey,
    clock: options.clock,
    log: logger,
    delivery: {
      allowPrivate: settings.webhooksAllowPrivate,
      allow: settings.webhooksAllow,
      trustedCa: settings.webhooksCa?.certificates,
      ...options.delivery,
    },
    backgroundCheckpoints: true,
    metrics: metrics?.counts,
    stripeApi: settings.stripeApi,
    checkoutHoldMinutes: settings.checkoutHoldMinutes,
  });
  const { services } = opened;
  metrics?.counts.watchQueue(() => deliveryQueue(services.db, services.clock.now()));
  metrics?.counts.watchWrites(() => services.writes.ranAgain);
  if (services.delivery.allowPrivate)
    logger.warn(
      {},
      'TESSERA_WEBHOOKS_ALLOW_PRIVATE=1: webhooks may be delivered to loopback and private addresses. For tests and local development only.',
    );
  await ensureDemoWorkspace(services.db, services.clock, services.secrets.webhookSecretKey);
  return opened;
}

/**
 * The server requests reach `dispatch` through: plain HTTP behind a trusted proxy, else HTTPS with
 * the data folder's certificate (or the operator's) behind the TLS front.
 */
async function createFront(
  settings: Settings,
  timeouts: Timeouts,
  dispatch: RequestListener,
  publicOrigin: () => string,
  logger: Logger,
): Promise<Front> {
  const serverOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // How often Node looks for requests over their time-out.
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    keepAliveTimeout: 65_000,
  };
  let front: Front;
  if (settings.trustProxy) {
    // TLS ends at the proxy; plain-HTTP requests it passes on are refused (httpsOnly).
    const server = createHttpServer(serverOptions, dispatch);
    front = { server, listener: server, tlsFront: null, certFile: null };
  } else {
    const tls = await loadTls(settings.dataDir, settings.tlsCert, settings.tlsKey);
    const https = createHttpsServer({ ...serverOptions, cert: tls.cert, key: tls.key }, dispatch);
    const tlsFront = tlsPort(https, publicOrigin, timeouts.headersMs);
    front = { server: https, listener: tlsFront.front, tlsFront, certFile: tls.certFile };
  }
  answerClientErrors(front.server, publicOrigin, logger);
  return front;
}

/** Listens at the settings' host and port, and gives the port; a refusal closes the services first. */
async function listen(
  listener: Server | NetServer,
  settings: Settings,
  opened: OpenServices,
): Promise<number> {
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(settings.port, settings.host, () => resolve());
    });
  } catch (error) {
    await opened.close();
    throw listenRefusal(error, settings.port, settings.host);
  }
  return (listener.address() as AddressInfo).port;
}

/**
 * The Koa app that answers at `origin`, with its OAuth server (issuing as `publicOrigin`) and the
 * dispatcher its readiness reports on (made, not started).
 */
async function buildServingApp(
  settings: Settings,
  options: StartOptions,
  services: Services,
  logger: Logger,
  metrics: Metrics,
  origin: string,
  publicOrigin: string,
): Promise<{ handler: RequestListener; dispatcher: Dispatcher | null }> {
  const oauth = oauthProvider(
    services,
    publicOrigin,
    await loadSigningKeys(settings.dataDir),
    services.secrets.cookieKey,
  );
  oauth.proxy = settings.trustProxy;
  const dispatcher =
    options.dispatcher === false
      ? null
      : new Dispatcher(services, { ...defaultDispatcherOptions, ...options.dispatcher });
  const handler = buildApp(services, logger, {
    trustProxy: settings.trustProxy,
    publicUrl: settings.publicUrl,
    listening: origin,
    authFailuresPerMinute: settings.authFailuresPerMinute,
    signUpsPerAddress: settings.signUpsPerAddress,
    oauth,
    readiness: readiness(services, () => dispatcher),
    metrics,
  }).callback();
  return { handler, dispatcher };
}

/** Starts the dispatcher, the mail sender (when e-mail is on) and the scheduled jobs, in that order. */
async function startBackgroundWork(
  settings: Settings,
  options: StartOptions,
  services: Services,
  logger: Logger,
  dispatcher: Dispatcher | null,
  publicOrigin: string,
): Promise<BackgroundWork> {
  await dispatcher?.start();
  // E-mail: queued only when an SMTP server is named, with links on the public origin.
  if (settings.mail) services.mail = { from: settings.mail.from, publicOrigin };
  const mailSender = settings.mail ? new MailSender(services, smtpTransport(settings.mail.smtp)) : null;
  await mailSender?.start();
  // Card payments' SDK, read while the process is still quiet (where a workspace takes cards).
  preloadWhenConnected(services.db).catch((err) =>
    logger.warn({ err }, 'the Stripe SDK could not be loaded'),
  );
  const jobs =
    options.scheduledJobs === false
      ? { stop() {} }
      : startJobs(services, logger, dispatcher, mailSender, {
          mailBodyRetentionDays: settings.mailBodyRetentionDays,
        });
  return { dispatcher, mailSender, jobs };
}

/** Stops the background work, then the server (its connections with it), then the services. */
async function closeInOrder(work: BackgroundWork, front: Front, opened: OpenServices): Promise<void> {
  work.jobs.stop();
  await work.dispatcher?.stop();
  await work.mailSender?.stop();
  if (front.tlsFront) await front.tlsFront.close();
  else {
    const { server } = front;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await opened.close();
}

/** The host part of the listening origin; an unspecified address is reached as localhost. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
