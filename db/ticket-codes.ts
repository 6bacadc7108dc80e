// The format of attendees.ticket_code: the credential printed as a ticket's QR code and in its
// address /t/{code}. 130 random bits, never derived from an id, so no one finds or forges another's
// ticket by guessing. Upper-case base 32 (RFC 4648 letters and 2-7): QR codes store it compactly and
// door staff can type it. Here, below core, as the sample data makes tickets too.
import { randomFillSync } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const ticketCodeLength = 26;
export const ticketCodePattern = /^[A-Z2-7]{26}$/;

// A registration of 50 asked the system for randomness 50 times; bytes come from a pool instead.
const pool = new Uint8Array(ticketCodeLength * 256);
let used = pool.length;

export function newTicketCode(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let code = '';
  // Each byte gives 5 random bits (the top three are dropped): 26 characters, 130 bits.
  for (let i = 0; i < ticketCodeLength; i++) code += alphabet[pool[used + i]! & 31];
  used += ticketCodeLength;
  return code;
}
