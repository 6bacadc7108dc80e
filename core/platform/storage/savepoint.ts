// A savepoint inside the current transaction: when `work` throws, only its own changes are rolled
// back and the transaction goes on. Savepoints nest strictly, so one name serves every level (SQLite
// and PostgreSQL both take the most recent savepoint of a name), and the statements stay the same
// text for the prepared-statement cache.
import { sql } from 'kysely';
import type { Db } from '../../../db/connect';

export async function withSavepoint<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  await sql`savepoint tessera_write`.execute(trx);
  try {
    const result = await work();
    await sql`release savepoint tessera_write`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint tessera_write`.execute(trx);
    await sql`release savepoint tessera_write`.execute(trx);
    throw error;
  }
}
