// Six-character order references, unambiguous when read aloud or typed (no 0/O, 1/I/L). Unique per
// event by the index orders_event_reference: the order's insert takes a reference only where it is
// free and draws another on a collision (core/attendees/registration-order.ts), no read first.
import { randomInt } from 'node:crypto';

const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A reference drawn at random; whether the event has it already is the insert's to say. */
export function drawOrderReference(): string {
  let reference = '';
  for (let i = 0; i < 6; i++) reference += alphabet[randomInt(alphabet.length)];
  return reference;
}
