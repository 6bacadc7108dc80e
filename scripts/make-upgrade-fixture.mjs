#!/usr/bin/env node
// Makes the upgrade fixture of a tagged version: a data folder written by THAT version's code,
// kept in test/fixtures/upgrade/<tag>/ for test/operations/upgrade.test.ts, which starts the
// current version on a copy and compares every table. Run once per release, for the tag before it:
//
//   node scripts/make-upgrade-fixture.mjs v0.1.0
//
// The tag's code is unpacked (git archive) into a temporary folder beside this checkout's
// node_modules (a tag's packages are a subset of today's); its `tessera serve` runs once on a new
// data folder (the demonstration workspace), a sample workspace and a key are made with its CLI,
// and data is written through its API and CLI in every area that is cheap to reach. The server is
// stopped and the write-ahead log folded into tessera.db. The folder's key files and a manifest
// (fixture.json: the keys, ids and the webhook secret the test needs) go with it.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { Agent, fetch } from 'undici';

const tag = process.argv[2];
if (!tag) {
  process.stderr.write('Usage: node scripts/make-upgrade-fixture.mjs <tag>   (for example v0.1.0)\n');
  process.exit(2);
}
const repo = resolve(import.meta.dirname, '..');
const commit = execFileSync('git', ['rev-parse', `${tag}^{commit}`], { cwd: repo, encoding: 'utf8' }).trim();
const out = join(repo, 'test', 'fixtures', 'upgrade', tag);
const work = mkdtempSync(join(tmpdir(), `tessera-fixture-${tag}-`));
const code = join(work, 'code');
const dataDir = join(work, 'data');
// Webhook signing secrets are kept encrypted under this key: the test starts with the same one.
const secretKey = randomBytes(32).toString('base64');
const env = {
  ...process.env,
  TESSERA_SECRET_KEY: secretKey,
  TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
  TESSERA_LOG_LEVEL: 'silent',
  TESSERA_RATE_LIMIT: '100000',
};
delete env.TESSERA_DATA;
delete env.TESSERA_DATABASE_URL;

const say = (line) => process.stderr.write(`${line}\n`);

function unpackTag() {
  mkdirSync(code);
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: repo, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', code], { input: archive });
  symlinkSync(join(repo, 'node_modules'), join(code, 'node_modules'));
}

/** One command of the tag's CLI; its JSON answer. */
function cli(...args) {
  const stdout = execFileSync(
    process.execPath,
    [join(code, 'bin', 'tessera.mjs'), ...args, '--data', dataDir],
    {
      cwd: code,
      env,
      encoding: 'utf8',
    },
  );
  return JSON.parse(stdout);
}

function startServer() {
  const child = spawn(
    process.execPath,
    [join(code, 'bin', 'tessera.mjs'), 'serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'],
    { cwd: code, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolveStart, reject) => {
    let printed = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${printed}`));
    }, 120_000);
    child.stdout.on('data', (chunk) => {
      printed += String(chunk);
      const rest = /REST API:\s+(https:\/\/\S+\/api\/v1)/.exec(printed);
      const demo = /Demonstration key[^:]*:\s+(\S+)/.exec(printed);
      if (!printed.includes('Tessera is running') || !rest || !demo) return;
      clearTimeout(timer);
      const ca = readFileSync(join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8');
      resolveStart({
        child,
        rest: rest[1],
        demoKey: demo[1],
        agent: new Agent({ connect: { ca, servername: 'localhost' } }),
      });
    });
    child.once('exit', (status) => reject(new Error(`serve exited (${status}): ${printed}`)));
  });
}

function stopServer(server) {
  return new Promise((resolveStop) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolveStop());
    server.child.kill('SIGTERM');
  });
}

async function api(server, key, method, path, body, headers = {}) {
  const res = await fetch(`${server.rest}${path}`, {
    method,
    dispatcher: server.agent,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const answer = text ? JSON.parse(text) : undefined;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return answer;
}

/** Data in every area cheap to reach through the tag's API and CLI. */
async function writeData(server) {
  const { workspaceId } = cli('workspace', 'create', '--name', 'Upgrade fixture', '--sample');
  const { key } = cli(
    'key',
    'create',
    '--workspace',
    workspaceId,
    '--name',
    'Fixture key',
    '--preset',
    'everything',
    '--expires',
    'never',
  );
  const events = (await api(server, key, 'GET', '/events')).data;
  const event = events.find((e) => !e.online) ?? events[0];
  const ticketTypes = (await api(server, key, 'GET', `/events/${event.eventId}/ticket-types`)).data;
  const ticketTypeId = ticketTypes[0].ticketTypeId;
  const registered = await api(
    server,
    key,
    'POST',
    `/events/${event.eventId}/attendees`,
    {
      attendees: [
        {
          ticketTypeId,
          firstName: 'Ada',
          lastName: 'Upgrade',
          email: 'ada.upgrade@example.org',
          company: 'Fixture Ltd',
        },
        { ticketTypeId, firstName: 'Erik', lastName: 'Erased', email: 'erik.erased@example.org' },
      ],
    },
    { 'idempotency-key': 'fixture-registration' },
  );
  const [ada, erik] = registered.attendees;
  await api(server, key, 'POST', `/events/${event.eventId}/attendees/${ada.attendeeId}/check-in`, {});
  // Nothing listens there: the deliveries fail and are kept with their attempts.
  const types = (await api(server, key, 'GET', '/webhooks/event-types')).data.map((t) => t.type);
  const made = await api(server, key, 'POST', '/webhooks', {
    url: 'https://127.0.0.1:9/fixture',
    description: 'Fixture endpoint',
    eventTypes: types.slice(0, 4),
  });
  await api(server, key, 'POST', `/webhooks/${made.webhook.webhookId}/test`);
  const hook = await api(server, key, 'POST', '/hooks', { url: 'https://127.0.0.1:9/hook', event: types[0] });
  const imported = cli('import', '--workspace', workspaceId, join(code, 'docs', 'import-example.json'));
  const erased = cli('person', 'erase', '--workspace', workspaceId, '--attendee', erik.attendeeId);
  const client = await registerClient(server);
  const orders = await api(server, key, 'GET', `/events/${event.eventId}/orders`);
  return {
    workspaceId,
    key,
    eventId: event.eventId,
    orderId: registered.orderId,
    orders: orders.data.length,
    checkedIn: ada.attendeeId,
    erased: erik.attendeeId,
    webhook: { webhookId: made.webhook.webhookId, secret: made.secret },
    hookId: hook.hookId,
    imported: imported.created,
    erasedRecords: erased,
    oauthClientId: client?.client_id ?? null,
  };
}

/** An assistant's sign-in client (OAuth dynamic registration), when the tag has one. */
async function registerClient(server) {
  const origin = new URL(server.rest).origin;
  const res = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    dispatcher: server.agent,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Fixture assistant',
      redirect_uris: ['http://127.0.0.1:33418/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (res.status !== 201) {
    say(`No assistant sign-in client: /oauth/register answered ${res.status}.`);
    return null;
  }
  return res.json();
}

/** Folds the write-ahead log into tessera.db, so the file alone holds everything. */
function checkpoint(file) {
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const migrations = db.prepare('select name from kysely_migration order by name').pluck().all();
  db.close();
  for (const extra of ['-wal', '-shm']) if (existsSync(file + extra)) rmSync(file + extra);
  return migrations;
}

/** The data folder's files (its keys) beside the database; the self-signed TLS pair is made anew. */
function keep(migrations, manifest, demoKey) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const db = readFileSync(join(dataDir, 'tessera.db'));
  const zipped = db.length > 1_000_000;
  writeFileSync(join(out, zipped ? 'tessera.db.gz' : 'tessera.db'), zipped ? gzipSync(db, { level: 9 }) : db);
  const keyFiles = [];
  const copyTree = (from, to, relative) => {
    for (const name of readdirSync(from)) {
      if (relative === '' && (name === 'tessera.db' || name.startsWith('tessera.db-') || name === 'tls'))
        continue;
      const source = join(from, name);
      if (statSync(source).isDirectory()) {
        mkdirSync(join(to, name), { recursive: true });
        copyTree(source, join(to, name), `${relative}${name}/`);
      } else {
        copyFileSync(source, join(to, name));
        keyFiles.push(`${relative}${name}`);
      }
    }
  };
  mkdirSync(join(out, 'data'));
  copyTree(dataDir, join(out, 'data'), '');
  const fixture = {
    tag,
    commit,
    secretKey,
    demoKey,
    database: zipped ? 'tessera.db.gz' : 'tessera.db',
    keyFiles,
    migrations,
    ...manifest,
  };
  writeFileSync(join(out, 'fixture.json'), `${JSON.stringify(fixture, null, 2)}\n`);
  say(
    `Fixture of ${tag} (${commit.slice(0, 10)}) in ${out}: ${db.length} bytes of database${zipped ? ' (gzipped)' : ''}, ${migrations.length} migrations, keys ${keyFiles.join(', ')}.`,
  );
}

try {
  unpackTag();
  say(`Unpacked ${tag} into ${code}; starting its server once.`);
  const server = await startServer();
  let manifest;
  try {
    manifest = await writeData(server);
  } finally {
    await server.agent.close();
    await stopServer(server);
  }
  const migrations = checkpoint(join(dataDir, 'tessera.db'));
  keep(migrations, manifest, server.demoKey);
} finally {
  rmSync(work, { recursive: true, force: true });
}
