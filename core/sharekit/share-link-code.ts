// A share link's code: its ref in the short address and on the event page. Codes made here are
// eight characters that read aloud and type without doubt (no 0/O, 1/I/L); imported ones keep
// their own, so any code of the import's form is looked up.
import { randomInt } from 'node:crypto';
import type { Ctx } from '../platform/context';

const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The form of every code (the import's too): 3 to 40 letters, digits, - and _. */
export const shareCodePattern = /^[A-Za-z0-9_-]{3,40}$/;

export async function newShareCode(ctx: Ctx, eventId: string): Promise<string> {
  for (;;) {
    let code = '';
    for (let i = 0; i < 8; i++) code += alphabet[randomInt(alphabet.length)];
    const taken = await ctx.db
      .selectFrom('share_links')
      .select('id')
      .where('event_id', '=', eventId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (!taken) return code;
  }
}

/** The short address a link is shared as: it names the event, since codes are unique per event. */
export function shortAddress(origin: string, slug: string, code: string): string {
  return `${origin}/s/${slug}/${code}`;
}
