// A migrated, empty store made once per run, copied for each test server instead of migrating its
// own: migrating a new database took about a quarter of a second of CPU per server (a second or
// more of wall time on a loaded machine), and the suite starts a few hundred. On SQLite the
// template is a data folder holding the migrated tessera.db and the self-signed TLS certificate
// (its 2048-bit key costs as much again); on PostgreSQL it is a database of the run's cluster that
// CREATE DATABASE … TEMPLATE copies. Only what every first start makes the same way is in it: no
// instance key, no signing keys, no demonstration workspace (each server makes its own).
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../db/connect';
import { loadTls } from '../../src/tls';

/** Where global-setup.ts leaves the SQLite template folder (inherited by the test processes). */
export const templateFolderVariable = 'TESSERA_TEST_TEMPLATE_DIR';
/** The name of the migrated template database on the run's PostgreSQL cluster, when there is one. */
export const templateDatabaseVariable = 'TESSERA_TEST_TEMPLATE_DATABASE';

async function migrated(location: string): Promise<void> {
  const opened = openDatabase(location);
  try {
    await migrateToLatest(opened.db);
  } finally {
    await opened.close();
  }
}

/** Makes the templates; answers the environment that names them. */
export async function makeStoreTemplates(scratch: string, cluster?: string): Promise<Record<string, string>> {
  const folder = join(scratch, 'store-template');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, 'tessera.db');
  await migrated(file);
  // One file, nothing in a write-ahead log beside it: a copy of tessera.db alone is whole.
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = DELETE');
  sqlite.close();
  await loadTls(folder);
  const variables: Record<string, string> = { [templateFolderVariable]: folder };
  if (cluster) {
    const name = 'tessera_template';
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name}`);
      await client.query(`create database ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(cluster);
    url.pathname = `/${name}`;
    await migrated(url.toString());
    variables[templateDatabaseVariable] = name;
  }
  return variables;
}

/**
 * Gives a new data folder the SQLite template's database and certificate (nothing when the folder
 * already has a database, or the run made no template: a file run on its own without global setup).
 */
export function fromTemplate(dataDir: string, sqlite: boolean): void {
  const folder = process.env[templateFolderVariable];
  if (!folder || !existsSync(folder)) return;
  if (sqlite && !existsSync(join(dataDir, 'tessera.db')))
    cpSync(join(folder, 'tessera.db'), join(dataDir, 'tessera.db'));
  if (!existsSync(join(dataDir, 'tls')))
    cpSync(join(folder, 'tls'), join(dataDir, 'tls'), { recursive: true });
}
