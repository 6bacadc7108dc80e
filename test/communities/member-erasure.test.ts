// Erasure after a person joined communities through the API (REST and MCP, with idempotency keys),
// was approved and left: `person erase` leaves no copy of them anywhere in the database: not the
// member rows, not the member.joined and member.left messages, not the answers kept for retries,
// not the activity log. A retry then replays its kept answer without them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { schemaColumns } from '../../db/dialect';
import { callTool, outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
const tag = Math.random().toString(36).slice(2, 8);
const who = { name: `Quilla${tag} Zorn${tag}`, email: `quilla.${tag}@example.net` };
const needles = [`Quilla${tag}`, `Zorn${tag}`, `quilla.${tag}`];
let memberIds: string[] = [];
let joinBody: Record<string, unknown>;
let openId: string;

async function whereTheyAppear(): Promise<string[]> {
  const db = t.server.services.db;
  const found: string[] = [];
  for (const [table, columns] of await schemaColumns(db)) {
    for (const { name: column } of columns) {
      for (const needle of needles) {
        const hit = await sql<{ n: number }>`
          select count(*) as n from ${sql.table(table)} where lower(cast(${sql.ref(column)} as text)) like ${`%${needle.toLowerCase()}%`}`.execute(
          db,
        );
        if (Number(hit.rows[0]!.n) > 0) found.push(`${table}.${column} holds ${needle}`);
      }
    }
  }
  return found;
}

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Member erasure', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const community = async (name: string, joinPolicy: string) =>
    (
      await t.api('/communities', {
        key,
        method: 'POST',
        body: { slug: `erasure-${name}-${tag}`, name, timeZone: 'UTC', joinPolicy },
      })
    ).body.communityId as string;
  openId = await community('open', 'open');
  const approvalId = await community('approval', 'approval');
  // REST, open: joined at once (member.joined), then left (member.left); the answer kept for retries.
  joinBody = { name: who.name, email: who.email.toUpperCase() };
  const open = await t.api(`/communities/${openId}/members`, {
    key,
    method: 'POST',
    body: joinBody,
    headers: { 'idempotency-key': `erase-open-${tag}` },
  });
  expect(open.status).toBe(201);
  await t.api(`/communities/${openId}/members/${open.body.memberId}/leave`, { key, method: 'POST' });
  // MCP, approval: waits, is approved (member.joined).
  const client = await t.mcp(key);
  try {
    const asked = await callTool(client, 'join_community', {
      communityId: approvalId,
      name: who.name,
      email: who.email,
      idempotencyKey: `erase-approval-${tag}`,
    });
    expect(asked.isError).toBe(false);
    const approved = await callTool(client, 'approve_community_member', {
      communityId: approvalId,
      memberId: asked.data.memberId,
    });
    expect(approved.data.status).toBe('active');
    memberIds = [open.body.memberId, asked.data.memberId];
  } finally {
    await client.close();
  }
  const found = await whereTheyAppear();
  expect(found).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^community_members\.name/),
      expect.stringMatching(/^community_members\.email/),
      expect.stringMatching(/^outbox\.payload/),
      expect.stringMatching(/^idempotency_records\.response_body/),
    ]),
  );
});
afterAll(async () => t.close());

describe('erasing a person who joined communities through the API', () => {
  it('leaves nothing of them anywhere in the database', async () => {
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      email: who.email,
    });
    expect(counts.communityMembers).toBe(2);
    expect(await whereTheyAppear()).toEqual([]);
    const rows = await t.server.services.db
      .selectFrom('community_members')
      .select(['name', 'email', 'erased'])
      .where('id', 'in', memberIds)
      .execute();
    expect(rows).toEqual([
      { name: null, email: null, erased: 1 },
      { name: null, email: null, erased: 1 },
    ]);
  });

  it('says erased in the member messages that carried them', async () => {
    const messages = (await outbox(t, workspaceId)).filter((m) =>
      memberIds.includes(m.payload.data.member?.memberId),
    );
    expect(messages.map((m) => m.type).sort()).toEqual(['member.joined', 'member.joined', 'member.left']);
    for (const m of messages)
      expect(m.payload.data.member).toMatchObject({
        name: null,
        email: null,
        erased: true,
        personalData: 'erased',
      });
  });

  it('replays the kept answer of a retried join without them', async () => {
    const replay = await t.api(`/communities/${openId}/members`, {
      key,
      method: 'POST',
      body: joinBody,
      headers: { 'idempotency-key': `erase-open-${tag}` },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject({ memberId: memberIds[0], name: null, email: null, erased: true });
  });
});
