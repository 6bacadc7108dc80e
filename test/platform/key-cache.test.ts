// Verified keys kept in memory (issue 12): the key row is not read on every call, yet whatever
// ends or changes a key takes effect on the very next call — also when another process (the CLI)
// made the change — because the database moves a generation counter by triggers and every call
// reads it. Writes that do not change what a key is (its last use) leave the cache alone.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache, type KeyRow } from '../../core/platform/storage/key-cache';
import { expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

let t: TestServer;
let workspaceId: string;
const clock = new MutableClock();

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Key cache workspace'));
});
afterAll(async () => t.close());

const generation = async () =>
  (await t.server.services.db.selectFrom('key_generation').select('value').executeTakeFirstOrThrow()).value;

describe('the key cache', () => {
  it('reads a key once while the generation stands, and again once it moves', async () => {
    const cache = new KeyCache();
    const db = t.server.services.db;
    let reads = 0;
    const row = { keyId: 'k' } as KeyRow;
    const read = async () => {
      reads += 1;
      return row;
    };
    expect(await cache.find(db, { keyId: 'k' }, read)).toBe(row);
    expect(await cache.find(db, { keyId: 'k' }, read)).toBe(row);
    expect(reads).toBe(1);
    await db.updateTable('workspaces').set({ name: 'Moved' }).where('id', '=', workspaceId).execute();
    await cache.find(db, { keyId: 'k' }, read);
    expect(reads).toBe(2);
    // A key that is not there is read each time, never kept.
    await cache.find(db, { prefix: 'nothing' }, async () => undefined);
    let absent = 0;
    await cache.find(db, { prefix: 'nothing' }, async () => {
      absent += 1;
      return undefined;
    });
    expect(absent).toBe(1);
  });
});

/** A cache and a read of one key that counts how often the key's row is read. */
function countedKey(keyId: string) {
  const cache = new KeyCache();
  const counted = { reads: 0 };
  const find = () =>
    cache.find(t.server.services.db, { keyId }, async () => {
      counted.reads += 1;
      return { keyId } as KeyRow;
    });
  return { find, counted };
}

/**
 * A write that renames the workspace (moving the key generation) and is then held: `moved` resolves
 * once it has, `end` commits it or gives it up, `ended` answers how it ended.
 */
function heldRename(name: string) {
  let moved!: () => void;
  const movedNow = new Promise<void>((resolve) => {
    moved = resolve;
  });
  let end!: (how: 'commit' | 'give up') => void;
  const ending = new Promise<'commit' | 'give up'>((resolve) => {
    end = resolve;
  });
  const ended = t.server.services.writes
    .run(async (trx) => {
      await trx.updateTable('workspaces').set({ name }).where('id', '=', workspaceId).execute();
      moved();
      if ((await ending) === 'give up') throw new Error('given up');
    })
    .then(
      () => 'committed',
      (error: Error) => error.message,
    );
  return { moved: movedNow, end, ended };
}

describe('the key cache beside a write in flight', () => {
  // On SQLite the generation is read at once, inside a write that is still running: a number the
  // write moved and then gave up must not be taken for one committed since (a revocation missed).
  it('reads the key again after a change committed since, when a write that moved the generation was given up', async () => {
    const { find, counted } = countedKey('b');
    await find();
    const write = heldRename('Never kept');
    await write.moved;
    // Asked while the write holds its moved generation: answered once the write has ended.
    const found = find();
    write.end('give up');
    expect(await write.ended).toBe('given up');
    await found;
    expect(counted.reads).toBe(1);
    await t.server.services.db
      .updateTable('workspaces')
      .set({ name: 'Kept' })
      .where('id', '=', workspaceId)
      .execute();
    await find();
    expect(counted.reads).toBe(2);
  });

  it('sees a change a write in flight commits on the call after it', async () => {
    const { find, counted } = countedKey('c');
    await find();
    const write = heldRename('Changed');
    await write.moved;
    const during = find();
    write.end('commit');
    expect(await write.ended).toBe('committed');
    await during;
    await find();
    expect(counted.reads).toBe(2);
  });
});

describe('verified keys in memory', () => {
  it('ends a key revoked by another process on the very next call', async () => {
    const { apiKeyId, key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    expect((await t.api('/me', { key })).status).toBe(200);
    expect((await t.api('/me', { key })).status).toBe(200);
    const run = await runTessera(['key', 'revoke', apiKeyId, '--data', t.dataDir]);
    expect(run.code, run.stderr).toBe(0);
    expectProblem(await t.api('/me', { key }), 401, 'keyRevoked');
  });

  it('never counts a call with a wrong secret against the key its prefix names', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never', ratePerMinute: 5 });
    // Kept in memory now: on PostgreSQL its next calls are counted with the generation read.
    expect((await t.api('/me', { key })).headers.get('ratelimit')).toMatch(/r=4;/);
    const guessed = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (let i = 0; i < 5; i += 1) expectProblem(await t.api('/me', { key: guessed }), 401, 'invalidKey');
    const after = await t.api('/me', { key });
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit')).toMatch(/r=3;/);
  });

  it('shows a change another writer made to a key on the very next call', async () => {
    const { apiKeyId, key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    expect((await t.api('/me', { key })).headers.get('ratelimit-policy')).not.toContain('q=7;');
    await t.server.services.db
      .updateTable('api_keys')
      .set({ rate_per_minute: 7 })
      .where('id', '=', apiKeyId)
      .execute();
    const res = await t.api('/me', { key });
    expect(res.headers.get('ratelimit-policy')).toContain('q=7;');
  });

  it('shows a renamed workspace on the very next call', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const rename = (name: string) =>
      t.server.services.db.updateTable('workspaces').set({ name }).where('id', '=', workspaceId).execute();
    await rename('Before');
    expect((await t.api('/workspace', { key })).body.name).toBe('Before');
    await rename('Renamed');
    expect((await t.api('/workspace', { key })).body.name).toBe('Renamed');
  });

  it('moves the generation for what a key depends on, and not for its last use', async () => {
    const { apiKeyId } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const before = await generation();
    await t.server.services.db
      .updateTable('api_keys')
      .set({ last_used_utc: new Date().toISOString() })
      .where('id', '=', apiKeyId)
      .execute();
    expect(await generation()).toBe(before);
    await sql`update api_keys set scopes = ${JSON.stringify(['events:read', 'orders:read'])} where id = ${apiKeyId}`.execute(
      t.server.services.db,
    );
    expect(await generation()).toBe(before + 1);
    await t.server.services.db.deleteFrom('api_keys').where('id', '=', apiKeyId).execute();
    expect(await generation()).toBe(before + 2);
  });

  it('still refuses a key the moment it expires: expiry is compared on every call', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'], expires: '30' });
    expect((await t.api('/me', { key })).status).toBe(200);
    clock.advance(31 * 24 * 3600_000);
    try {
      expectProblem(await t.api('/me', { key }), 401, 'keyExpired');
    } finally {
      clock.advance(-31 * 24 * 3600_000);
    }
  });
});
