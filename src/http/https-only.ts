// HTTPS only: behind a trusted proxy, a request the proxy received over plain HTTP is refused.
import type { Middleware } from 'koa';
import { problem } from '../../core/platform/problems';

export function httpsOnly(trustProxy: boolean): Middleware {
  return (ctx, next) => {
    // Without a proxy the server speaks only TLS, so ctx.protocol is https; with one, Koa
    // reads X-Forwarded-Proto (app.proxy = true).
    if (trustProxy && ctx.protocol !== 'https') {
      throw problem('httpsRequired', 'Only HTTPS is answered; send the request over https.');
    }
    return next();
  };
}
