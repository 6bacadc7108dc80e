// The e-mail log keeps a message's body (text, HTML, attachments: they name the person and carry
// their ticket link) only as long as the operator allows (TESSERA_MAIL_BODY_RETENTION_DAYS, 90 days
// by default). The nightly job purges the bodies of older messages that are done with (sent, failed
// or cancelled); the log keeps who, when, which template (cause) and the outcome. Each purged row
// changes (updated_utc, change_seq), so an updatedSince reader learns its body is gone.

import { nextChangeSeq } from '../../db/sequence';
import type { Services } from '../platform/services';

export const defaultMailBodyRetentionDays = 90;

/** Rows purged a transaction, so the nightly job never holds the writer long. */
const batch = 500;

const finished = ['sent', 'failed', 'cancelled'] as const;

/** Purges the bodies of finished messages queued before the retention period; answers how many. */
export async function purgeMailBodies(services: Services, retentionDays: number): Promise<number> {
  const now = services.clock.now();
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let purged = 0;
  for (;;) {
    const done = await services.writes.run(async (trx) => {
      const rows = await trx
        .selectFrom('mail_messages')
        .select('id')
        .where('created_utc', '<', cutoff)
        .where('state', 'in', [...finished])
        .where('text_body', 'is not', null)
        .orderBy('id')
        .limit(batch)
        .execute();
      for (const row of rows) {
        await trx
          .updateTable('mail_messages')
          .set({
            text_body: null,
            html_body: null,
            attachments: null,
            updated_utc: now.toISOString(),
            change_seq: await nextChangeSeq(trx),
          })
          .where('id', '=', row.id)
          .execute();
      }
      return rows.length;
    });
    purged += done;
    if (done < batch) return purged;
  }
}
