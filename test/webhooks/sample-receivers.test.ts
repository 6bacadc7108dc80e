// The sample never sends anything: every webhook endpoint and automation subscription of the
// demonstration workspace and of `workspace create --sample` is switched off and points under
// .invalid (RFC 2606, never resolves), even with a master key (so with signing secrets). Receivers
// older versions made (on, at example.com, example.net and example.org) are re-pointed and
// switched off when the service starts, and an endpoint someone made is never touched.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { newId } from '../../core/platform/ids';
import { migrateToLatest } from '../../db/connect';
import { sampleId } from '../../db/sample/ids';
import { endAll, exited, openDataDir, type Spawned, serve, tessera } from '../support/spawned';

const env = { TESSERA_SECRET_KEY: 'sample-receivers-master-key-0123456789abcdef' };
const dir = mkdtempSync(join(tmpdir(), 'tessera-sample-receivers-'));
let workspaceId: string;
let server: Spawned | undefined;

async function withDb<T>(
  work: (db: Awaited<ReturnType<typeof openDataDir>>['db']) => Promise<T>,
): Promise<T> {
  const { db, close } = await openDataDir(dir);
  try {
    await migrateToLatest(db);
    return await work(db);
  } finally {
    await close();
  }
}

/** Every receiver of the data folder: the sample's alone here. */
const receivers = () =>
  withDb(async (db) => ({
    webhooks: await db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
    hooks: await db.selectFrom('hooks').selectAll().orderBy('id').execute(),
  }));

async function stop() {
  if (!server) return;
  server.child.kill('SIGTERM');
  await exited(server.child);
  server = undefined;
}

beforeAll(async () => {
  // Made through the command line, and the demonstration workspace by the service's first start.
  ({ workspaceId } = await tessera(
    ['workspace', 'create', '--name', 'Try-out', '--sample', '--data', dir],
    env,
  ));
  server = await serve(dir, env);
});
afterAll(async () => {
  await stop();
  await endAll();
});

describe('sample webhook endpoints and subscriptions', () => {
  it('are all switched off, at names under .invalid, in the demonstration and a --sample workspace', async () => {
    const { webhooks, hooks } = await receivers();
    for (const workspace of [demoWorkspaceId, workspaceId]) {
      expect(webhooks.filter((w) => w.workspace_id === workspace)).toHaveLength(3);
      expect(hooks.filter((h) => h.workspace_id === workspace)).toHaveLength(3);
    }
    // With a master key the endpoints have signing secrets: only being off keeps them quiet.
    expect(webhooks.every((w) => w.secret_enc !== null)).toBe(true);
    for (const r of [...webhooks, ...hooks]) {
      expect(r.active, r.url).toBe(0);
      expect(new URL(r.url).hostname, r.url).toMatch(/\.invalid$/);
    }
  });

  it('made on by an older version at example.* are re-pointed and switched off when the service starts', async () => {
    await stop();
    const someones = newId();
    const before = await withDb(async (db) => {
      // As older versions made them, in both workspaces.
      const old: Record<string, string> = {
        crm: 'https://crm.example.com/tessera/webhooks?token=sample-3f9c',
        badges: 'https://badges.example.net/print-queue',
        relay: 'https://relay.example.org/hooks/old-chat',
      };
      for (const workspace of [demoWorkspaceId, workspaceId]) {
        for (const [name, url] of Object.entries(old))
          await db
            .updateTable('webhooks')
            .set({ url, active: name === 'relay' ? 0 : 1 })
            .where('id', '=', sampleId(workspace, `webhooks/endpoint/${name}`))
            .execute();
        for (const client of ['zapier', 'make', 'n8n'])
          await db
            .updateTable('hooks')
            .set({ url: `https://hooks.example.com/${client}/${client}`, active: 1 })
            .where('id', '=', sampleId(workspace, `webhooks/hook/${client}`))
            .execute();
      }
      // An endpoint someone made at one of those addresses (off: nothing is sent here either).
      const { change_txn: _stamped, ...crm } = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', sampleId(workspaceId, 'webhooks/endpoint/crm'))
        .executeTakeFirstOrThrow();
      await db
        .insertInto('webhooks')
        .values({ ...crm, id: someones, active: 0, description: 'Made by someone' })
        .execute();
      return db.selectFrom('webhooks').selectAll().where('id', '=', someones).executeTakeFirstOrThrow();
    });
    expect((await receivers()).webhooks.filter((w) => w.active === 1)).toHaveLength(4);

    server = await serve(dir, env);
    const { webhooks, hooks } = await receivers();
    for (const r of [...webhooks, ...hooks]) expect(r.active, r.url).toBe(0);
    const sample = [...webhooks.filter((w) => w.id !== someones), ...hooks];
    expect(sample).toHaveLength(12);
    for (const r of sample) expect(new URL(r.url).hostname, r.url).toMatch(/\.invalid$/);
    // The relay kept why it was off; someone's endpoint is as it was.
    expect(webhooks.filter((w) => w.disabled_reason === 'gone')).toHaveLength(2);
    expect(webhooks.find((w) => w.id === someones)).toEqual(before);
  });
});
