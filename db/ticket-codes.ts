// The format of attendees.ticket_code: the credential printed as a ticket's QR code and in its
// address /t/{code}. Upper-case base 32 (RFC 4648 letters and 2-7): QR codes store it compactly and
// door staff can type it. Here, below core, as the sample data makes tickets too.
// 26 characters: the moment it was made (9 characters, milliseconds, in an alphabet that sorts as
// text sorts), then 85 random bits, never derived from an id: no one finds or forges another's ticket
// by guessing (a session id needs 64). The moment first puts a registration's codes side by side in
// the codes' unique index: wholly random, each new code landed on a page of its own, and SQLite
// wrote 60 pages of 4 KiB to its log for a registration of 50 (docs/benchmarks.md).
import { randomFillSync } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** The same 32 characters in the order text sorts them: the moment's digits. */
const sortedAlphabet = '234567ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const ticketCodeLength = 26;
export const ticketCodePattern = /^[A-Z2-7]{26}$/;
/** 45 bits of milliseconds since 1970: codes sort by their moment until the year 3084. */
const momentLength = 9;
const randomLength = ticketCodeLength - momentLength;

// A registration of 50 asked the system for randomness 50 times; bytes come from a pool instead.
const pool = new Uint8Array(randomLength * 256);
let used = pool.length;

export function newTicketCode(): string {
  return ticketCodeAt(Date.now());
}

/** A new code made at `now` (milliseconds since 1970). */
export function ticketCodeAt(now: number): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let moment = '';
  for (let i = 0, rest = Math.floor(now); i < momentLength; i++, rest = Math.floor(rest / 32))
    moment = sortedAlphabet[rest % 32] + moment;
  let code = moment;
  // Each byte gives 5 random bits (the top three are dropped): 17 characters, 85 bits.
  for (let i = 0; i < randomLength; i++) code += alphabet[pool[used + i]! & 31];
  used += randomLength;
  return code;
}
