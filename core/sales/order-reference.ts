// Six-character order references, unambiguous when read aloud or typed (no 0/O, 1/I/L), unique per
// event by the index orders_event_reference: the order's insert takes a reference only where it is
// free and draws another on a collision, with no read first; the same statement takes the order's
// block of change positions (db/sequence.ts changeSeqsInInsert).
import { randomInt } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect';
import type { OrdersTable } from '../../db/schema';
import { changeSeqsInInsert } from '../../db/sequence';

const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A reference drawn at random; whether the event has it already is the insert's to say. */
export function drawOrderReference(): string {
  let reference = '';
  for (let i = 0; i < 6; i++) reference += alphabet[randomInt(alphabet.length)];
  return reference;
}

/** An order as written, but for what its insert gives it. */
export type NewOrder = Omit<Insertable<OrdersTable>, 'reference' | 'change_seq'>;

/**
 * Inserts the order with a reference free at its event and `positions` change positions, the
 * order's the first; answers the reference and that first position.
 */
export async function insertOrder(
  db: Db,
  order: NewOrder,
  positions: number,
  draw: () => string = drawOrderReference,
): Promise<{ reference: string; firstSeq: number }> {
  for (;;) {
    const reference = draw();
    const written = await db
      .insertInto('orders')
      .values({ ...order, reference, change_seq: await changeSeqsInInsert(db, positions) })
      .onConflict((oc) => oc.columns(['event_id', 'reference']).doNothing())
      .returning('change_seq')
      .executeTakeFirst();
    // No row: the event has an order of that reference already; another is drawn.
    if (written) return { reference, firstSeq: Number(written.change_seq) };
  }
}
