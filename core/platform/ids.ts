// Ids are UUIDs; new rows get time-ordered v7 ids so they sort by creation. Ids are read without
// regard to case (RFC 9562 says so): every UUID in an input is taken in lower case, as stored.
import { randomFillSync, randomUUID } from 'node:crypto';
import { validate as isValidUuid, v7 } from 'uuid';

// uuid's v7 asks the system for 16 random bytes per id (a registration of 50 spent 0.3 ms of its
// 6.6 there). Its random bytes come from a pool filled 256 ids at a time instead; the clock and the
// counter that keeps ids made in the same millisecond in order are kept here as uuid keeps them.
const idsPerFill = 256;
const pool = new Uint8Array(16 * idsPerFill);
let next = idsPerFill;
const clock = { msecs: -Infinity, seq: 0 };

function randomBytes16(): Uint8Array {
  if (next === idsPerFill) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = pool.subarray(next * 16, next * 16 + 16);
  next += 1;
  return bytes;
}

export function newId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > clock.msecs) {
    // A new millisecond starts the counter at 31 random bits, as uuid does.
    clock.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    clock.msecs = now;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs += 1;
  }
  return v7({ random, msecs: clock.msecs, seq: clock.seq });
}

export function isUuid(value: string): boolean {
  return isValidUuid(value);
}

/**
 * 32 random hex digits (122 bits), for trace ids. randomUUID draws from a cached pool
 * of randomness; randomBytes went to the system on every call, a few per cent of a request.
 */
export function randomHex(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * Outbox and webhook message ids: msg_ followed by 32 hex characters, those of a time-ordered id.
 * The outbox's unique index on them then grows at its end: random ids put each message of a write
 * on a page of its own, and a registration of 50 wrote some 50 more index pages at its commit
 * (in-process 5.7–6.3 → 5.1–5.2 ms a call on SQLite).
 */
export function newMessageId(): string {
  return `msg_${newId().replaceAll('-', '')}`;
}

const upperCaseUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A copy of the input with every UUID string in lower case. */
export function lowerCaseIds(input: unknown): unknown {
  if (typeof input === 'string')
    return input.length === 36 && upperCaseUuid.test(input) ? input.toLowerCase() : input;
  if (Array.isArray(input)) return input.map(lowerCaseIds);
  if (input !== null && typeof input === 'object')
    return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, lowerCaseIds(value)]));
  return input;
}
