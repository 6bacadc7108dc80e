// The one reader of request bodies (the API's and MCP's JSON, the public form, the sign-in form):
// the bytes as sent, at most the cap, then decoded by their Content-Encoding (gzip, deflate, br;
// identity is the bytes themselves) with the same cap on what decoding gives. Inflating stops as
// soon as it passes the cap, so a small body that would inflate to gigabytes (a decompression bomb)
// costs a few milliseconds and answers 413. Any other coding, or several stacked, answers 415
// naming it; bytes that are not what their coding says answer 400.
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';
import { problem } from './problems';

type Decode = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;

const decoders: Record<string, { name: string; decode: Decode }> = {
  gzip: { name: 'gzip', decode: promisify(gunzip) as Decode },
  // RFC 9110 §8.4.1.3: x-gzip is gzip.
  'x-gzip': { name: 'gzip', decode: promisify(gunzip) as Decode },
  // RFC 9110 §8.4.1.2: "deflate" is the zlib format (RFC 1950).
  deflate: { name: 'deflate', decode: promisify(inflate) as Decode },
  br: { name: 'br', decode: promisify(brotliDecompress) as Decode },
};

/** The codings a request body may have (besides identity), as a 415's Accept-Encoding lists them. */
export const acceptedEncodings = 'gzip, deflate, br';

/** The codings named in Content-Encoding, identity left out, lower case, in the order applied. */
export function contentCodings(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * 415 unsupportedEncoding: `encoding` names what was sent, `accepted` what would be taken; the
 * transports answer `accepted` as the Accept-Encoding header too (RFC 9110 §15.5.16).
 */
export function unsupportedEncoding(sent: string, accepted: string, why: string) {
  return problem('unsupportedEncoding', why, { encoding: sent, accepted });
}

function decoderOf(header: string | undefined) {
  const codings = contentCodings(header);
  if (codings.length === 0) return null;
  const sent = codings.join(', ');
  if (codings.length > 1)
    throw unsupportedEncoding(
      sent,
      acceptedEncodings,
      `The body is encoded more than once (Content-Encoding: ${sent}); send it with one of ${acceptedEncodings}, or none.`,
    );
  const decoder = decoders[codings[0]!];
  if (!decoder)
    throw unsupportedEncoding(
      sent,
      acceptedEncodings,
      `The body's Content-Encoding ${sent} is not one this service decodes; send it with one of ${acceptedEncodings}, or none.`,
    );
  return decoder;
}

const tooLarge = (limit: number) =>
  problem('payloadTooLarge', `The request body is larger than ${sizeOf(limit)}.`);

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/** The bytes as sent, at most `limit`; the stream is left unbroken when refused, so the answer reaches the client. */
async function bytesSent(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      received += (chunk as Buffer).length;
      if (received > limit) throw tooLarge(limit);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'payloadTooLarge') throw error;
    throw problem('invalidBody', 'The body could not be read whole.');
  }
  return Buffer.concat(chunks, received);
}

/** The request's body decoded, at most `limit` bytes both as sent and as decoded. */
export async function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const decoder = decoderOf(req.headers['content-encoding']);
  const sent = await bytesSent(req, limit);
  if (!decoder) return sent;
  try {
    return await decoder.decode(sent, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw problem('payloadTooLarge', `The request body decodes to more than ${sizeOf(limit)}.`);
    throw problem('invalidBody', `The body is not valid ${decoder.name} data, as its Content-Encoding says.`);
  }
}

/** A form body (application/x-www-form-urlencoded) as text, read as readRequestBody reads. */
export async function readRequestText(req: IncomingMessage, limit: number): Promise<string> {
  return (await readRequestBody(req, limit)).toString('utf8');
}
