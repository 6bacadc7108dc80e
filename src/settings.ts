// The operating settings, from flags first and the environment second (README: "Settings").
import { resolve } from 'node:path';

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy: boolean;
  /** Calls a minute for keys without a limit of their own. */
  ratePerMinute: number;
  /** TESSERA_SECRET_KEY: the deployment's master key (webhook secrets, cursor signing). */
  secretKey?: string;
  logLevel: string;
}

export class SettingsError extends Error {}

function positiveInt(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535_000)
    throw new SettingsError(`${what} must be a whole number, not "${value}".`);
  return n;
}

export function dataDirFrom(flag: string | undefined, env = process.env): string {
  return resolve(flag || env.TESSERA_DATA || './data');
}

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: boolean;
}

export function settingsFrom(flags: ServeFlags, env = process.env): Settings {
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new SettingsError('--tls-cert and --tls-key go together.');
  }
  const port = positiveInt(flags.port ?? env.PORT ?? '8443', 'The port');
  if (port > 65_535) throw new SettingsError('The port must be at most 65535.');
  const ratePerMinute = positiveInt(env.TESSERA_RATE_LIMIT ?? '600', 'TESSERA_RATE_LIMIT');
  if (ratePerMinute < 1) throw new SettingsError('TESSERA_RATE_LIMIT must be at least 1.');
  return {
    port,
    host: flags.host ?? env.HOST ?? 'localhost',
    dataDir: dataDirFrom(flags.data, env),
    tlsCert: flags.tlsCert,
    tlsKey: flags.tlsKey,
    trustProxy: flags.trustProxy ?? false,
    ratePerMinute,
    secretKey: env.TESSERA_SECRET_KEY || undefined,
    logLevel: env.TESSERA_LOG_LEVEL ?? 'info',
  };
}
