// Starts the service: database and demonstration workspace, TLS (or a trusted proxy), the Koa
// app, and the scheduled jobs. Returns its addresses and a way to stop it cleanly.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { demoKey, ensureDemoWorkspace } from '../core/admin/demo-workspace';
import type { Clock } from '../core/platform/clock';
import type { Services } from '../core/platform/services';
import { buildApp } from './app';
import { startJobs } from './jobs';
import { createLogger, type Logger } from './logger';
import { openServices } from './services';
import type { Settings } from './settings';
import { loadTls } from './tls';

export interface RunningServer {
  /** https://host:port */
  origin: string;
  restUrl: string;
  mcpUrl: string;
  port: number;
  demoKey: string;
  certFile: string | null;
  services: Services;
  close(): Promise<void>;
}

export async function startServer(
  settings: Settings,
  options: { clock?: Clock; logger?: Logger } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  const opened = await openServices({
    dataDir: settings.dataDir,
    ratePerMinute: settings.ratePerMinute,
    secretKey: settings.secretKey,
    clock: options.clock,
  });
  const { services } = opened;
  await ensureDemoWorkspace(services.db, services.clock);
  const app = buildApp(services, logger, { trustProxy: settings.trustProxy });

  let server: Server;
  let certFile: string | null = null;
  if (settings.trustProxy) {
    // TLS ends at the proxy; plain-HTTP requests it passes on are refused (httpsOnly).
    server = createHttpServer(app.callback());
  } else {
    const tls = await loadTls(settings.dataDir, settings.tlsCert, settings.tlsKey);
    certFile = tls.certFile;
    server = createHttpsServer({ cert: tls.cert, key: tls.key }, app.callback());
  }
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const origin = `https://${hostForUrl}:${port}`;
  const jobs = startJobs(services, logger);

  return {
    origin,
    restUrl: `${origin}/api/v1`,
    mcpUrl: `${origin}/mcp`,
    port,
    demoKey: demoKey.key,
    certFile,
    services,
    close: async () => {
      jobs.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened.close();
    },
  };
}
