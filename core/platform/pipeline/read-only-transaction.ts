// PostgreSQL: a read in one snapshot, answered as soon as it has read. Its read-only commit changes
// nothing the answer depends on, so the answer does not wait for it: a client paging through a list
// waits a round trip less for each page (the cursor sync of 50,000 attendees: 0.69 → 0.62 s).
import type { Db } from '../../../db/connect';
import type { Log } from '../log';

/**
 * Runs `reads` in a read-only, repeatable-read transaction and answers what they answer once they
 * have; the commit follows. A failure of the reads is the answer's; a commit that fails after the
 * answer (the connection lost) is logged.
 */
export function readOnlyTransaction<T>(db: Db, log: Log, reads: (trx: Db) => Promise<T>): Promise<T> {
  return new Promise((answer, fail) => {
    let answered = false;
    db.transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        answer(await reads(trx));
        answered = true;
      })
      .catch((error: unknown) => {
        if (!answered) fail(error);
        else log.warn({ err: error }, 'a read answered, then its read-only commit failed');
      });
  });
}
