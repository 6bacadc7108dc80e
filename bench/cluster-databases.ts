// Databases of one throwaway PostgreSQL cluster for benches that measure two trees side by side
// (bench:compare, bench:sync-side-by-side): each tree's own database, and what the seeding wrote
// vacuumed before a measured round.
import pg from 'pg';
import type { startCluster } from '../scripts/postgres-cluster.mjs';

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

/** The cluster's own database for `tessera`, or another one made beside it. */
export async function databaseOf(
  cluster: Cluster,
  name: string,
): Promise<{ url: string; socketUrl: string }> {
  if (name === 'tessera') return cluster;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const rename = (url: string) => url.replace('/tessera?', `/${name}?`).replace(/\/tessera$/, `/${name}`);
  return { url: rename(cluster.url), socketUrl: rename(cluster.socketUrl) };
}

/**
 * Vacuums and analyses what the seeding wrote, so PostgreSQL's own autovacuum does not pick those
 * tables up during the first server's round (it did: that round read a third slower).
 */
export async function settle(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}
