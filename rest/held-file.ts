// A file the server holds in memory and answers unchanged (the scanner's files, Scalar's bundle, the
// OpenAPI document of an origin). Its ETag, made once from its bytes, answers a browser's
// revalidation with 304 and no body: the scanner's files are checked on every load of the page.
// The answer is marked held (ctx.state.heldBody), so compression (src/http/compression.ts)
// compresses these bytes once, harder, and keeps the result instead of redoing it per request.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

export interface HeldFile {
  readonly type: string;
  readonly body: Buffer;
  /** A digest of the bytes: names this version of the file (its ETag, a URL's `?v=`). */
  readonly version: string;
}

export function heldFile(type: string, body: Buffer): HeldFile {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { type, body, version };
}

/** Answers the file, or 304 with no body when the request's If-None-Match names its ETag. */
export function answerHeldFile(ctx: Context, file: HeldFile): void {
  ctx.status = 200;
  ctx.type = file.type;
  // Weak: sent compressed or not, it is one file to a cache revalidating it.
  ctx.set('ETag', `W/"${file.version}"`);
  if (ctx.fresh) {
    ctx.status = 304;
    // What the 200 would have said: its bytes depend on Accept-Encoding.
    ctx.vary('Accept-Encoding');
    return;
  }
  ctx.state.heldBody = true;
  ctx.body = file.body;
}
