// Starts the service: database and demonstration workspace, TLS (or a trusted proxy), the Koa
// app, and the scheduled jobs. Returns its addresses and a way to stop it cleanly.
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { demoKey, ensureDemoWorkspace } from '../core/admin';
import { MailSender } from '../core/mail';
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
import { readiness } from './metrics/readiness';
import { ServerMetrics } from './metrics/server-metrics';
import { oauthProvider } from './oauth/provider';
import { openServices } from './services';
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

export async function startServer(
  settings: Settings,
  options: {
    clock?: Clock;
    logger?: Logger;
    timeouts?: Timeouts;
    /** Delivery settings other than the defaults (tests shorten the time-out). */
    delivery?: Partial<DeliverySettings>;
    /** The dispatcher's limits, or false to run without one (tests that inspect the outbox). */
    dispatcher?: Partial<DispatcherOptions> | false;
    /** false: no scheduled work (tests that run a job themselves, at a moment of their choosing). */
    scheduledJobs?: false;
  } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  // Counted only when someone may read the counts (/metrics is on).
  const metrics = settings.metrics ? { counts: new ServerMetrics(), settings: settings.metrics } : null;
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

  const timeouts = options.timeouts ?? defaultTimeouts;
  const serverOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // How often Node looks for requests over their time-out.
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    keepAliveTimeout: 65_000,
  };
  let server: Server;
  let listener: Server | NetServer;
  let tlsFront: TlsPort | null = null;
  let certFile: string | null = null;
  let publicOrigin = settings.publicUrl ?? '';
  // The app is built once the port is known (it makes links from the listening origin).
  let handler: RequestListener = (_req, res) => res.end();
  const dispatch: RequestListener = (req, res) => handler(req, res);
  if (settings.trustProxy) {
    // TLS ends at the proxy; plain-HTTP requests it passes on are refused (httpsOnly).
    server = createHttpServer(serverOptions, dispatch);
    listener = server;
  } else {
    const tls = await loadTls(settings.dataDir, settings.tlsCert, settings.tlsKey);
    certFile = tls.certFile;
    const https = createHttpsServer({ ...serverOptions, cert: tls.cert, key: tls.key }, dispatch);
    server = https;
    tlsFront = tlsPort(https, () => publicOrigin, timeouts.headersMs);
    listener = tlsFront.front;
  }
  answerClientErrors(server, () => publicOrigin, logger);
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(settings.port, settings.host, () => resolve());
    });
  } catch (error) {
    await opened.close();
    throw listenRefusal(error, settings.port, settings.host);
  }
  const port = (listener.address() as AddressInfo).port;
  const origin = `https://${hostForUrl(settings.host)}:${port}`;
  publicOrigin = settings.publicUrl ?? origin;
  // Tokens are issued by this origin and name its /mcp and /api/v1 as their audiences.
  services.tokens.issuer = publicOrigin;
  // Links made outside a request (operator commands run in tests against this server's services).
  services.publicOrigin = publicOrigin;
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
  handler = buildApp(services, logger, {
    trustProxy: settings.trustProxy,
    publicUrl: settings.publicUrl,
    listening: origin,
    authFailuresPerMinute: settings.authFailuresPerMinute,
    signUpsPerAddress: settings.signUpsPerAddress,
    oauth,
    readiness: readiness(services, () => dispatcher),
    metrics,
  }).callback();
  await dispatcher?.start();
  // E-mail: queued only when an SMTP server is named, with links on the public origin.
  if (settings.mail) services.mail = { from: settings.mail.from, publicOrigin };
  const mailSender = settings.mail ? new MailSender(services, smtpTransport(settings.mail.smtp)) : null;
  await mailSender?.start();
  const jobs =
    options.scheduledJobs === false
      ? { stop() {} }
      : startJobs(services, logger, dispatcher, mailSender, {
          mailBodyRetentionDays: settings.mailBodyRetentionDays,
        });

  return {
    origin,
    publicOrigin,
    restUrl: `${publicOrigin}/api/v1`,
    mcpUrl: `${publicOrigin}/mcp`,
    port,
    demoKey: demoKey.key,
    certFile,
    services,
    dispatcher,
    mailSender,
    close: async () => {
      jobs.stop();
      await dispatcher?.stop();
      await mailSender?.stop();
      if (tlsFront) await tlsFront.close();
      else {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await opened.close();
    },
  };
}

/** The host part of the listening origin; an unspecified address is reached as localhost. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
