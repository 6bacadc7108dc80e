// Compressed answers when the client asks with Accept-Encoding: Brotli or gzip, for answers of at
// least 1 KiB; the files the server holds (rest/held-file.ts) compressed once and kept. A page of
// 500 attendees shrinks to a sixteenth, so an integration syncing over a real network pulls that
// much less. Only what is worth it and safe is compressed: JSON (REST, the
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

type Encoding = 'br' | 'gzip';

// Answers made per request: Brotli at quality 4 and gzip at level 5, most of the saving for a
// fraction of the CPU of the highest levels.
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

// Held files (rest/held-file.ts) are compressed once, so at the highest levels that stay quick:
// Brotli 11 up to 1 MiB (jsQR's 257 KB in 0.2 s, to 33 KB against 53 at quality 4), 9 above
// (Scalar's 4.3 MB bundle in 0.3 s rather than 5), gzip 9.
const heldCompressors = {
  br: (bytes: Buffer) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: bytes.length > 1024 * 1024 ? 9 : 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes: Buffer) => promisify(gzip)(bytes, { level: 9 }),
};
const heldCompressed = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();

/** A held file's bytes in `encoding`, compressed on the first request and kept with the file. */
export function compressedHeldFile(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let forms = heldCompressed.get(body);
  if (!forms) {
    forms = {};
    heldCompressed.set(body, forms);
  }
  let compressed = forms[encoding];
  if (!compressed) {
    compressed = heldCompressors[encoding](body);
    forms[encoding] = compressed;
    // A failure is not kept: the next request tries again.
    compressed.catch(() => delete forms[encoding]);
  }
  return compressed;
}

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

/**
 * Brotli or gzip, whichever the client weighs more; on a tie `onTie`. An answer made per request
 * takes gzip on a tie: with the malloc setting npm start gives (README), Brotli maps and faults in
 * its megabytes of tables on every call, 0.3 ms for a 2 KB answer and 1.2 for 334 KB, against gzip's
 * 0.13 and 0.8, for about a tenth fewer bytes. A held file, compressed once, takes Brotli.
 */
function chosenEncoding(header: string, onTie: Encoding): Encoding | null {
  const br = weightOf(header, 'br');
  const gzipWeight = weightOf(header, 'gzip');
  if (br === 0 && gzipWeight === 0) return null;
  if (br === gzipWeight) return onTie;
  return br > gzipWeight ? 'br' : 'gzip';
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
    const held = ctx.state.heldBody === true && Buffer.isBuffer(body);
    const encoding = chosenEncoding(ctx.get('Accept-Encoding'), held ? 'br' : 'gzip');
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
    ctx.body = await (held ? compressedHeldFile(bytes, encoding) : inOneCall[encoding](bytes));
    ctx.set('Content-Encoding', encoding);
  };
}
