// Which processes are alive, for claims one process leaves when it dies (a dispatcher's
// deliveries). On PostgreSQL each process holds a lock named by its instance id, on a connection
// of its own, for as long as it runs; the database drops it with the connection when the process
// ends, however it ends. Another process tells a dead owner by taking its lock. On SQLite one
// process serves the file: the owners alive are the ones this process holds.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './connect';
import { advisoryKey, isPostgres } from './dialect';

const prefix = 'tessera instance ';
const lockName = (instanceId: string) => `${prefix}${instanceId}`;

export interface Liveness {
  /** Ends the process's lock (at a clean stop). */
  release(): Promise<void>;
  /** Whether other processes may hold claims, and so end while this one runs (PostgreSQL). */
  othersMayEnd: boolean;
}

/** Instances alive in this process (what SQLite goes by). */
const aliveHere = new Set<string>();

/** Holds this instance's lock until released. */
export async function holdLiveness(db: Db, instanceId: string): Promise<Liveness> {
  if (!isPostgres(db)) {
    aliveHere.add(instanceId);
    return { release: async () => void aliveHere.delete(instanceId), othersMayEnd: false };
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  let failed!: (error: unknown) => void;
  const holding = new Promise<void>((resolve, reject) => {
    held = resolve;
    failed = reject;
  });
  const connection = db
    .connection()
    .execute(async (conn) => {
      const key = advisoryKey(lockName(instanceId));
      await sql`select pg_advisory_lock(${key})`.execute(conn);
      held();
      await released;
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    })
    .catch(failed);
  await holding;
  return {
    release: async () => {
      release();
      await connection;
    },
    othersMayEnd: true,
  };
}

/**
 * True for a row whose owner (the instance id in `ownerColumn`) no longer runs: on PostgreSQL its
 * lock can be taken (until this transaction ends); on SQLite it is not one this process holds.
 */
export function ownerGone(db: Db, ownerColumn: string): RawBuilder<boolean> {
  const owner = sql.ref(ownerColumn);
  if (isPostgres(db))
    return sql<boolean>`pg_try_advisory_xact_lock(${advisoryKey(sql<string>`${prefix} || ${owner}`)})`;
  if (aliveHere.size === 0) return sql<boolean>`1 = 1`;
  return sql<boolean>`${owner} not in (${sql.join([...aliveHere])})`;
}
