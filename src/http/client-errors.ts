// Requests Node refuses before Koa sees them (headers over its size limit, bytes that are not
// HTTP/1.1, a request slower than its time-outs) are answered as every other refusal is: application/problem+json with a traceId.
// Left to Node, they got a bare 400 without a body, or (headers too large, over TLS) a connection
// closed without a word, since Node destroys the socket right after writing.
import { maxHeaderSize, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomHex } from '../../core/platform/ids';
import { type Problem, problem, problemBody } from '../../core/platform/problems';
import type { Logger } from '../logger';
import { loggedPath } from './logged-path';

/** What Node's parser hands over with its error. */
type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/** How long a refused client may go on sending before its connection is cut (it reads our answer first). */
const lingerMs = 2_000;

export function answerClientErrors(server: Server, originOf: () => string, logger: Logger): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    // A parser in error reports every further chunk too; one answer is enough.
    if (answered.has(socket)) return;
    answered.add(socket);
    // Writing into an answer already under way would corrupt it (Node's own rule).
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const p = problemFor(error);
    const traceId = randomHex();
    // A timed-out request was read up to its body: its answer-to-be knows the path.
    const target = inFlight?.req?.url;
    const path = target?.startsWith('/') ? (target.split('?')[0] ?? '/') : pathOf(error.rawPacket);
    const body = JSON.stringify(problemBody(p, { root: originOf(), instance: path, traceId }));
    socket.end(
      [
        `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}`,
        `Date: ${new Date().toUTCString()}`,
        'Content-Type: application/problem+json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Trace-Id: ${traceId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    lingerThenDestroy(socket);
    logger.info(
      { traceId, path: loggedPath(path), status: p.status, parserError: error.code },
      'request refused unread',
    );
  });
}

function problemFor(error: ClientError): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        'headersTooLarge',
        `The request headers are over ${Math.round(maxHeaderSize / 1024)} KB; send smaller ones.`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem('requestTimeout');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problem('payloadTooLarge', 'The chunk extensions of the body are too large.');
    default:
      return problem(
        'invalidRequest',
        `The request is not well-formed HTTP/1.1${error.reason ? ` (${error.reason})` : ''}.`,
      );
  }
}

/**
 * The path of the request line, without its query (as instance is elsewhere), when the failing
 * packet starts with it; headers too large fail in a later packet, and their instance is /.
 */
function pathOf(raw: Buffer | undefined): string {
  const line = /^[A-Z]+ (\/[!-~]*) HTTP\/1\.[01]\r?\n/.exec(raw?.subarray(0, 8_192).toString('latin1') ?? '');
  return line?.[1]?.split('?')[0] ?? '/';
}

/**
 * Closing at once while the client still sends makes its kernel drop our answer (a reset); the
 * connection is kept reading for a moment so the answer arrives.
 */
function lingerThenDestroy(socket: Duplex): void {
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
