// The baseline: the same Koa + TLS stack answering a route that does one better-sqlite3 insert
// per request, run as its own process like the real server.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { Router } from '@koa/router';
import SqliteDatabase from 'better-sqlite3';
import Koa from 'koa';

const [certFile, keyFile, dbFile, port] = process.argv.slice(2) as [string, string, string, string];
const sqlite = new SqliteDatabase(dbFile);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.exec(
  'create table if not exists scans (id integer primary key autoincrement, attendee_id text not null, scanned_utc text not null)',
);
const insert = sqlite.prepare('insert into scans (attendee_id, scanned_utc) values (?, ?)');

const app = new Koa();
const router = new Router();
router.post('/scan/:attendeeId', (ctx) => {
  const { lastInsertRowid } = insert.run(ctx.params.attendeeId, new Date().toISOString());
  ctx.body = { id: Number(lastInsertRowid), result: 'welcome' };
});
app.use(router.routes());
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
