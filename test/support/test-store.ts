// Which store the suite runs on: SQLite (npm test), or PostgreSQL when `npm run test:postgres` has
// started a throwaway cluster and named it in TESSERA_TEST_POSTGRES. On PostgreSQL every data
// folder a test makes gets a database of its own in that cluster, so tests stay apart as their
// SQLite files are.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const cluster = process.env.TESSERA_TEST_POSTGRES;
const databases = new Map<string, Promise<string>>();

export const onPostgres = cluster !== undefined;

/** The database URL for a data folder (made on first use), or undefined on SQLite. */
export function databaseFor(dataDir: string): Promise<string | undefined> {
  if (!cluster) return Promise.resolve(undefined);
  let made = databases.get(dataDir);
  if (!made) {
    made = (async () => {
      const name = `t_${randomBytes(8).toString('hex')}`;
      const client = new pg.Client({ connectionString: cluster });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      const url = new URL(cluster);
      url.pathname = `/${name}`;
      return url.toString();
    })();
    databases.set(dataDir, made);
  }
  return made;
}
