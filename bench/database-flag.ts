// A bench's `--database throwaway|postgres://…`: the PostgreSQL database it measures, when given,
// a throwaway cluster of this machine's PostgreSQL (durable, as PostgreSQL's defaults are, reached
// through its Unix socket as a server on the database's machine should reach it) made for it.
import { startCluster } from '../scripts/postgres-cluster.mjs';

export interface BenchDatabase {
  /** The database's URL; undefined without the flag (SQLite). */
  url: string | undefined;
  /** Ends the throwaway cluster, if one was made. */
  stop(): Promise<void>;
}

export async function benchDatabase(): Promise<BenchDatabase> {
  const flag = process.argv.indexOf('--database');
  const database = flag >= 0 ? (process.argv[flag + 1] ?? '') : null;
  if (database !== null && database !== 'throwaway' && !/^postgres(ql)?:\/\//.test(database))
    throw new Error('--database takes a postgres:// URL, or throwaway for a cluster of its own.');
  const cluster = database === 'throwaway' ? await startCluster({ durable: true }) : null;
  return {
    url: cluster?.socketUrl ?? database ?? undefined,
    stop: async () => cluster?.stop(),
  };
}
