// The origin absolute URLs in answers are made from (event pages, the MCP and docs addresses, the
// problem type links). Never the request's own Host header, which anyone can set: the configured
// public URL; else, behind a trusted proxy, what the proxy forwards; else the listening origin.
import type { Context } from 'koa';

export interface OriginSettings {
  publicUrl?: string;
  trustProxy: boolean;
  /** https://host:port the server listens at. */
  listening: string;
}

export function publicOrigin(settings: OriginSettings): (ctx: Context) => string {
  if (settings.publicUrl) {
    const fixed = settings.publicUrl;
    return () => fixed;
  }
  // Koa reads X-Forwarded-Proto and X-Forwarded-Host when app.proxy is on (only with --trust-proxy).
  if (settings.trustProxy) return (ctx) => `${ctx.protocol}://${ctx.host}`;
  return () => settings.listening;
}

const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins a browser page of this service can have: the public origin, and for a service on a
 * loopback address the other spellings of loopback with the same port.
 */
export function ownOrigins(origin: string): Set<string> {
  const url = new URL(origin);
  if (!loopbackNames.includes(url.hostname)) return new Set([origin]);
  return new Set(loopbackNames.map((name) => `${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`));
}
