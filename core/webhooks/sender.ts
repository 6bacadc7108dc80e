// One attempt to deliver a message: a POST of a JSON body, with a time-out, no redirect followed,
// and the receiver's address checked at the moment of connecting against the rule creation used
// (receiverVerdict: public, or allowed by TESSERA_WEBHOOKS_ALLOW; plain http only to allowed
// private addresses). Certificates are checked against Node's store, plus the operator's CA file
// (TESSERA_WEBHOOKS_CA) for deliveries alone when one is given.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent, type RequestOptions, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { AttemptOutcome } from '../../db/values';
import type { ReceiverAllowList } from '../platform/receiver-allow-list';
import { allowHint, dnsName, ipLiteral, type ReceiverVerdict, receiverVerdict } from './receiver-address';

/**
 * Why an attempt failed, in words an integrator can act on: the name did not resolve, the
 * receiver refused or dropped the connection, its certificate or TLS was not accepted, it did not
 * answer in time, it answered a status other than 2xx, the address is not one deliveries may
 * reach, or the message could not be signed. Null when it succeeded.
 */
export const failureReasons = [
  'dnsFailure',
  'connectionRefused',
  'connectionFailed',
  'tlsError',
  'timeout',
  'httpStatus',
  'privateAddress',
  'notSigned',
] as const;
export type FailureReason = (typeof failureReasons)[number];

export interface SendResult {
  outcome: AttemptOutcome;
  reason: FailureReason | null;
  statusCode: number | null;
  durationMs: number;
  /** Seconds the receiver asked to wait (Retry-After on 429 and 503). */
  retryAfterSeconds: number | null;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** TESSERA_WEBHOOKS_ALLOW: private receivers the operator allowed. */
  allow?: ReceiverAllowList;
  /** TESSERA_WEBHOOKS_CA: PEM certificates trusted for deliveries besides Node's own. */
  trustedCa?: readonly string[];
}

class RefusedAddress extends Error {
  constructor(
    readonly verdict: ReceiverVerdict,
    message: string,
  ) {
    super(message);
  }
}

/** Why an address is refused, naming the setting that would allow it. */
function refusal(verdict: ReceiverVerdict, hostname: string, address: string): RefusedAddress {
  const where = hostname === address ? address : `${hostname} resolves to ${address}, which`;
  return new RefusedAddress(
    verdict,
    verdict === 'plainToPublic'
      ? `${where} is a public address: plain http is only for private receivers on TESSERA_WEBHOOKS_ALLOW`
      : `${where} is not a public address; ${allowHint}`,
  );
}

/** Resolves a name and refuses it when an address it gives breaks the rule. */
function ruledLookup(options: SendOptions, plain: boolean): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    // Resolved as creation resolved it: a trailing dot names the same host.
    dnsLookup(dnsName(hostname), { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      for (const a of addresses) {
        const verdict = receiverVerdict(options, plain, hostname, a.address);
        if (verdict !== 'ok') return callback(refusal(verdict, hostname, a.address), '', 4);
      }
      if (lookupOptions.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const keepAlive = { keepAlive: true, maxSockets: 16, maxFreeSockets: 16, timeout: 60_000 };
/** Keep-alive connections to receivers, shared by every delivery. */
const agent = new Agent(keepAlive);
const plainAgent = new HttpAgent(keepAlive);
/** One agent per CA list (one per deployment): Node's roots and the operator's file. */
const agentsWithCa = new WeakMap<readonly string[], Agent>();

function httpsAgent(trustedCa: readonly string[] | undefined): Agent {
  if (!trustedCa?.length) return agent;
  let made = agentsWithCa.get(trustedCa);
  if (!made) {
    // NODE_EXTRA_CA_CERTS is part of Node's default store but not of rootCertificates: kept too.
    made = new Agent({ ...keepAlive, ca: [...rootCertificates, ...extraCaCertificates(), ...trustedCa] });
    agentsWithCa.set(trustedCa, made);
  }
  return made;
}

/** The certificates of NODE_EXTRA_CA_CERTS, which an agent with its own CA list would otherwise drop. */
function extraCaCertificates(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/** Errors of a certificate no trusted authority signed: the operator can trust its CA. */
const unknownCertificate = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

function networkMessage(error: Error & { code?: string }): string {
  return error.code && unknownCertificate.has(error.code)
    ? `${error.message}; trust the receiver's CA with TESSERA_WEBHOOKS_CA`
    : error.message;
}

/** Resolver codes (getaddrinfo through Node): the name found no address. */
const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);

/** A network error's reason, by its code: Node's resolver, socket and TLS codes. */
function networkReason(error: Error & { code?: string }): FailureReason {
  const code = error.code ?? '';
  if (dnsCodes.has(code)) return 'dnsFailure';
  if (code === 'ECONNREFUSED') return 'connectionRefused';
  if (
    unknownCertificate.has(code) ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    /CERT|SELF_SIGNED|HOSTNAME_MISMATCH/.test(code) ||
    /\bTLS\b|SSL|certificate/i.test(error.message)
  )
    return 'tlsError';
  return 'connectionFailed';
}

/** The start of an error's text, saying in words what the reason says in a code. */
const reasonWords: Record<FailureReason, string> = {
  dnsFailure: 'DNS lookup failed',
  connectionRefused: 'connection refused',
  connectionFailed: 'connection failed',
  tlsError: 'TLS failed',
  timeout: 'timed out',
  httpStatus: 'answered with a status other than 2xx',
  privateAddress: 'address not allowed',
  notSigned: 'not signed',
};

/** The error text of a network failure: what happened in words, then what Node said. */
function networkError(reason: FailureReason, error: Error & { code?: string }): string {
  return `${reasonWords[reason]}: ${networkMessage(error)}`;
}

function retryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

type Outcome = Omit<SendResult, 'durationMs'>;

/** The attempt's result with its duration since `started`, in ms to two decimals. */
function timed(result: Outcome, started: number): SendResult {
  return { ...result, durationMs: Math.round((performance.now() - started) * 100) / 100 };
}

/** The refusal of an address given as a literal that deliveries may not reach, before any connection; else null. */
function refusedLiteral(target: URL, plain: boolean, options: SendOptions): Outcome | null {
  const literal = ipLiteral(target.hostname);
  if (!literal) return null;
  const verdict = receiverVerdict(options, plain, literal, literal);
  if (verdict === 'ok') return null;
  return {
    outcome: verdict === 'notAllowed' ? 'privateAddress' : 'networkError',
    reason: 'privateAddress',
    statusCode: null,
    retryAfterSeconds: null,
    error: refusal(verdict, literal, literal).message,
  };
}

/**
 * The request: a POST of the JSON body over a keep-alive connection (TLS unless plain, trusting the
 * operator's CA too), its receiver's addresses checked as the name resolves, idle no longer than the time-out.
 */
function requestOptions(
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
  plain: boolean,
): RequestOptions {
  return {
    method: 'POST',
    agent: plain ? plainAgent : httpsAgent(options.trustedCa),
    lookup: ruledLookup(options, plain),
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    },
    timeout: options.timeoutMs,
  };
}

const noAnswer = (timeoutMs: number) => `no answer within ${timeoutMs} ms`;

/** Reads the answer's status; its body is not read beyond what keeps the connection reusable. */
function readAnswer(res: IncomingMessage, finish: (result: Outcome) => void): void {
  const statusCode = res.statusCode ?? 0;
  res.resume();
  res.on('end', () => finish(answered(statusCode, res)));
  res.on('error', (error) =>
    finish({
      outcome: 'networkError',
      reason: 'connectionFailed',
      statusCode,
      retryAfterSeconds: null,
      error: networkError('connectionFailed', error),
    }),
  );
}

/** What an answer's status means: done, the receiver gone (410), or a failure, with Retry-After on 429 and 503. */
function answered(statusCode: number, res: IncomingMessage): Outcome {
  const ok = statusCode >= 200 && statusCode < 300;
  return {
    outcome: ok ? 'succeeded' : statusCode === 410 ? 'gone' : 'httpError',
    reason: ok ? null : 'httpStatus',
    statusCode,
    // Headers read only then: Node builds their object on first reading.
    retryAfterSeconds:
      statusCode === 429 || statusCode === 503 ? retryAfter(res.headers['retry-after']) : null,
    error: ok ? null : `answered ${statusCode}`,
  };
}

/** No answer in time: the request is ended, and the attempt with it. */
function timeOut(req: ClientRequest, timeoutMs: number, finish: (result: Outcome) => void): void {
  req.destroy(new Error(noAnswer(timeoutMs)));
  finish({
    outcome: 'timeout',
    reason: 'timeout',
    statusCode: null,
    retryAfterSeconds: null,
    error: noAnswer(timeoutMs),
  });
}

/** A request that failed: its address refused while connecting, a time-out, or a network error by its code. */
function failure(error: Error & { code?: string }): Outcome {
  const outcome: AttemptOutcome =
    error instanceof RefusedAddress
      ? error.verdict === 'notAllowed'
        ? 'privateAddress'
        : 'networkError'
      : /within \d+ ms/.test(error.message)
        ? 'timeout'
        : 'networkError';
  const reason: FailureReason =
    error instanceof RefusedAddress
      ? 'privateAddress'
      : outcome === 'timeout'
        ? 'timeout'
        : networkReason(error);
  return {
    outcome,
    reason,
    statusCode: null,
    retryAfterSeconds: null,
    // A refused address and a time-out say it already.
    error: reason === 'privateAddress' || reason === 'timeout' ? error.message : networkError(reason, error),
  };
}

export function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const target = new URL(url);
  const plain = target.protocol === 'http:';
  const refused = refusedLiteral(target, plain, options);
  if (refused) return Promise.resolve(timed(refused, started));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(timed(result, started));
    };
    const req = (plain ? httpRequest : request)(
      target,
      requestOptions(body, headers, options, plain),
      (res) => readAnswer(res, finish),
    );
    const deadline = setTimeout(() => timeOut(req, options.timeoutMs, finish), options.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(noAnswer(options.timeoutMs))));
    req.on('error', (error) => {
      clearTimeout(deadline);
      finish(failure(error));
    });
    req.end(body);
  });
}
