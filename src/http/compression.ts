// Compressed answers when the client asks with Accept-Encoding: Brotli or gzip, for answers of at
// least 1 KiB. A page of 500 attendees shrinks to a sixteenth, so an integration syncing over a real
// network pulls that much less. Only what is worth it and safe is compressed: JSON (REST, the
// OpenAPI document), CSV exports, and the pages' scripts and styles. HTML pages are not: their
// forms carry tokens beside what the visitor typed (BREACH). Server-sent events (MCP streams)
// never are: compression would hold events back until a block filled.
//
// Node's zlib, not koa-compress: an answer held in memory (nearly all) is compressed in one call on
// zlib's thread pool and written in one piece. Streaming it through a compressor wrote it in many
// small pieces, and each page of a sync then waited on the peer's delayed acknowledgement (a
// 50,000-attendee pull took 5.7 s instead of 0.9). Streamed answers (exports) stream compressed.
import { Stream } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { Middleware } from 'koa';

const compressedTypes = [
  /^application\/(problem\+)?json\b/,
  /^text\/csv\b/,
  /^application\/javascript\b/,
  /^text\/css\b/,
  /^image\/svg\+xml\b/,
  /^application\/manifest\+json\b/,
];

export function isCompressedType(type: string): boolean {
  return compressedTypes.some((pattern) => pattern.test(type));
}

/** Smaller answers gain less than the encoding costs. */
const threshold = 1024;

// Brotli at quality 4 and gzip at level 5: most of the saving for a fraction of the CPU of the
// highest levels (an answer is compressed on every request, never ahead of time).
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const gzipOptions = { level: 5 };

const inOneCall = {
  br: (bytes: Buffer) => promisify(brotliCompress)(bytes, brotliOptions),
  gzip: (bytes: Buffer) => promisify(gzip)(bytes, gzipOptions),
};
const asStream = {
  br: () => createBrotliCompress(brotliOptions),
  gzip: () => createGzip(gzipOptions),
};

/** The weight the client gives an encoding in Accept-Encoding (`*` counts for any not named). */
function weightOf(header: string, encoding: string): number {
  let any = 0;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (name === encoding) return weight;
    if (name === '*') any = weight;
  }
  return any;
}

/** Brotli or gzip, whichever the client weighs more; Brotli on a tie (it is the smaller). */
function chosenEncoding(header: string): 'br' | 'gzip' | null {
  const br = weightOf(header, 'br');
  const gzipWeight = weightOf(header, 'gzip');
  if (br === 0 && gzipWeight === 0) return null;
  return br >= gzipWeight ? 'br' : 'gzip';
}

export function compression(): Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === null || body === undefined || ctx.method === 'HEAD') return;
    if (!isCompressedType(ctx.response.type)) return;
    ctx.vary('Accept-Encoding');
    // No Accept-Encoding (curl's default) is answered as it is.
    if (!ctx.get('Accept-Encoding') || ctx.response.get('Content-Encoding')) return;
    const encoding = chosenEncoding(ctx.get('Accept-Encoding'));
    if (!encoding) return;
    if (body instanceof Stream) {
      ctx.set('Content-Encoding', encoding);
      ctx.remove('Content-Length');
      ctx.body = body.pipe(asStream[encoding]());
      return;
    }
    const bytes = Buffer.isBuffer(body)
      ? body
      : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    if (bytes.length < threshold) return;
    // The Content-Type set for the original body stays (Koa keeps a type already set).
    ctx.body = await inOneCall[encoding](bytes);
    ctx.set('Content-Encoding', encoding);
  };
}
