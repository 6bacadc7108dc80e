// Ids are UUIDs; new rows get time-ordered v7 ids so they sort by creation.
import { randomBytes } from 'node:crypto';
import { validate as isValidUuid, v7 } from 'uuid';

export function newId(): string {
  return v7();
}

export function isUuid(value: string): boolean {
  return isValidUuid(value);
}

/** Outbox and webhook message ids: msg_ followed by 32 hex characters. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}
