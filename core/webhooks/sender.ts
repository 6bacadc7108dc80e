// One attempt to deliver a message: an HTTPS POST of a JSON body, with a time-out, no redirect
// followed, and the receiver's address checked at the moment of connecting (the name is resolved
// here, and an address that is not public is refused unless private addresses are allowed for
// tests and local development). Node's own certificate store is used (NODE_EXTRA_CA_CERTS adds to it).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../../db/values';
import { dnsName, ipLiteral, isPublicAddress } from './receiver-address';

export interface SendResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  /** Seconds the receiver asked to wait (Retry-After on 429 and 503). */
  retryAfterSeconds: number | null;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

class PrivateAddress extends Error {}

/** Resolves a name and refuses it when an address it gives is not public. */
function publicLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    // Resolved as creation resolved it: a trailing dot names the same host.
    dnsLookup(dnsName(hostname), { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const inside = addresses.find((a) => !isPublicAddress(a.address));
      if (inside && !allowPrivate)
        return callback(
          new PrivateAddress(`${hostname} resolves to ${inside.address}, not a public address`),
          '',
          4,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Keep-alive connections to receivers, shared by every delivery. */
const agent = new Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 16, timeout: 60_000 });

function retryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...result,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  });
  const target = new URL(url);
  const literal = ipLiteral(target.hostname);
  if (literal && !options.allowPrivate && !isPublicAddress(literal)) {
    return Promise.resolve(
      done({
        outcome: 'privateAddress',
        statusCode: null,
        retryAfterSeconds: null,
        error: `${literal} is not public`,
      }),
    );
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve(done(result));
    };
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        lookup: publicLookup(options.allowPrivate),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        timeout: options.timeoutMs,
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        // The answer's body is not read beyond what keeps the connection reusable.
        res.resume();
        res.on('end', () => {
          const ok = statusCode >= 200 && statusCode < 300;
          finish({
            outcome: ok ? 'succeeded' : statusCode === 410 ? 'gone' : 'httpError',
            statusCode,
            retryAfterSeconds:
              statusCode === 429 || statusCode === 503 ? retryAfter(res.headers['retry-after']) : null,
            error: ok ? null : `answered ${statusCode}`,
          });
        });
        res.on('error', (error) =>
          finish({ outcome: 'networkError', statusCode, retryAfterSeconds: null, error: error.message }),
        );
      },
    );
    const deadline = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
      finish({
        outcome: 'timeout',
        statusCode: null,
        retryAfterSeconds: null,
        error: `no answer within ${options.timeoutMs} ms`,
      });
    }, options.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (error) => {
      clearTimeout(deadline);
      const outcome: AttemptOutcome =
        error instanceof PrivateAddress
          ? 'privateAddress'
          : /within \d+ ms/.test(error.message)
            ? 'timeout'
            : 'networkError';
      finish({ outcome, statusCode: null, retryAfterSeconds: null, error: error.message });
    });
    req.end(body);
  });
}
