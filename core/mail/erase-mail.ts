// Erasure's part in the mail queue: the person's messages lost their address and body with the
// other personal rows (mail-personal.ts); those still waiting are cancelled, so none is sent to
// them later. One being sent at this moment ends as its SMTP conversation does.
import { nextChangeSeq } from '../../db/sequence';
import type { Ctx } from '../platform/context';

export async function cancelErasedMail(ctx: Ctx, mailIds: readonly string[]): Promise<void> {
  // One change position per row: lists page by it.
  for (const id of mailIds)
    await ctx.db
      .updateTable('mail_messages')
      .set({
        state: 'cancelled',
        next_attempt_utc: null,
        last_error: 'The person erased their data.',
        updated_utc: ctx.clock.now().toISOString(),
        change_seq: await nextChangeSeq(ctx.db),
      })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
}
