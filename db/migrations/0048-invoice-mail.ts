// Invoices and credit notes go out by e-mail (issue 52, item 5): the buyer's receipt of a paid
// order with its invoice, the credit note of a refund, and a document sent (or sent again) by the
// organiser. Three causes join the mail queue's fixed list.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';
import { rebuildTable, withForeignKeysOff } from '../rebuild-table';

const causeKinds = [
  'ticketIssued',
  'ticketCancelled',
  'transferInstructions',
  'ticketResent',
  'invoiceIssued',
  'creditNoteIssued',
  'documentSent',
];

export async function up(db: Kysely<any>): Promise<void> {
  await withForeignKeysOff(
    db,
    (trx) =>
      rebuildTable(trx, 'mail_messages', {
        dropColumnChecks: ['cause_kind'],
        checks: { cause_kind: `"cause_kind" in (${causeKinds.map((k) => `'${k}'`).join(', ')})` },
      }),
    // No table refers to the queue's messages: its own references are all a rebuild could break.
    ['mail_messages'],
  );
}
