// Six-character order references, unambiguous when read aloud or typed (no 0/O, 1/I/L).
import { randomInt } from 'node:crypto';
import type { Ctx } from '../platform/context';

const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export async function newOrderReference(ctx: Ctx, eventId: string): Promise<string> {
  for (;;) {
    let reference = '';
    for (let i = 0; i < 6; i++) reference += alphabet[randomInt(alphabet.length)];
    const taken = await ctx.db
      .selectFrom('orders')
      .select('id')
      .where('event_id', '=', eventId)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (!taken) return reference;
  }
}
