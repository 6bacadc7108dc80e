// Ids are UUIDs; new rows get time-ordered v7 ids so they sort by creation. Ids are read without
// regard to case (RFC 9562 says so): every UUID in an input is taken in lower case, as stored.
import { randomUUID } from 'node:crypto';
import { validate as isValidUuid, v7 } from 'uuid';

export function newId(): string {
  return v7();
}

export function isUuid(value: string): boolean {
  return isValidUuid(value);
}

/**
 * 32 random hex digits (122 bits), for trace and message ids. randomUUID draws from a cached pool
 * of randomness; randomBytes went to the system on every call, a few per cent of a request.
 */
export function randomHex(): string {
  return randomUUID().replaceAll('-', '');
}

/** Outbox and webhook message ids: msg_ followed by 32 hex characters. */
export function newMessageId(): string {
  return `msg_${randomHex()}`;
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
