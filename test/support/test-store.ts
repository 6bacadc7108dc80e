// Which store the suite runs on: SQLite (npm test), or PostgreSQL when `npm run test:postgres` has
// started a throwaway cluster and named it in TESSERA_TEST_POSTGRES. On PostgreSQL every data
// folder a test makes gets a database of its own in that cluster, so tests stay apart as their
// SQLite files are. A test server's database starts as a copy of the run's migrated template
// (test/support/store-template.ts); any other starts empty, as a new deployment's does.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { templateDatabaseVariable } from './store-template';

const cluster = process.env.TESSERA_TEST_POSTGRES;
const databases = new Map<string, Promise<string>>();

export const onPostgres = cluster !== undefined;

/**
 * The database URL for a data folder (made on first use), or undefined on SQLite. `migrated`: made
 * from the run's migrated template, when there is one.
 */
export function databaseFor(dataDir: string, { migrated = false } = {}): Promise<string | undefined> {
  if (!cluster) return Promise.resolve(undefined);
  let made = databases.get(dataDir);
  if (!made) {
    made = (async () => {
      const name = `t_${randomBytes(8).toString('hex')}`;
      const client = new pg.Client({ connectionString: cluster });
      await client.connect();
      try {
        const template = migrated ? process.env[templateDatabaseVariable] : undefined;
        await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
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
