// The guards of memberships under concurrent calls, each met by two calls that have both done their
// reads before either writes (test/support/interleave.ts), on either store: one address joins a
// community once (the unique index of migration 0022), and a member approved or removed twice at the
// same moment becomes a member, or stops being one, once, with one message.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../core/admin/api-keys';
import { createWorkspace } from '../../core/admin/workspaces';
import { approveCommunityMember } from '../../core/communities/approve-community-member';
import { createCommunity } from '../../core/communities/create-community';
import { joinCommunity } from '../../core/communities/join-community';
import { leaveCommunity } from '../../core/communities/leave-community';
import type { Ctx } from '../../core/platform/context';
import { verifyKeyId } from '../../core/platform/pipeline/authenticate';
import { invoke } from '../../core/platform/pipeline/invoke';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { isProblem } from '../../core/platform/problems';
import { type OpenServices, openServices } from '../../src/services';
import { interleaved } from '../support/interleave';
import { databaseFor } from '../support/test-store';

let dir: string;
let location: string;
let opened: OpenServices;
let ctx: Ctx;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-member-races-'));
  const database = await databaseFor(dir);
  location = database ?? join(dir, 'tessera.db');
  opened = await openServices({ dataDir: dir, database, ratePerMinute: 1_000_000 });
  const { services } = opened;
  const { workspaceId } = await createWorkspace(services.db, services.clock, { name: 'Member races' });
  const { apiKeyId } = await createKey(services.db, services.clock, {
    workspaceId,
    name: 'Member races',
    preset: 'everything',
    expires: 'never',
  });
  const verified = await verifyKeyId(services, apiKeyId);
  if (!verified.ok) throw new Error('the key made for the test does not verify');
  ctx = {
    db: services.db,
    clock: services.clock,
    actor: verified.actor,
    services,
    request: { origin: 'https://localhost' },
  };
});
afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = any;

async function call(operation: AnyOperation, input: unknown): Promise<Answer> {
  return (await invoke(operation, ctx, input)).data;
}

/** The calls at once, each on a connection of its own, all having read before any writes. */
async function atOnce(...calls: [AnyOperation, unknown][]): Promise<Answer[]> {
  const race = interleaved(location, calls.length);
  const racing: Ctx = { ...ctx, services: { ...ctx.services, writes: race.writes } };
  const settled = await Promise.allSettled(calls.map(([op, input]) => invoke(op, racing, input)));
  expect(race.metBeforeWriting(), 'every call had read before any wrote').toBe(calls.length);
  return settled.map((s) =>
    s.status === 'fulfilled' ? s.value.data : isProblem(s.reason) ? s.reason.code : String(s.reason),
  );
}

let count = 0;
async function community(joinPolicy: 'open' | 'approval'): Promise<string> {
  count += 1;
  const made = await call(createCommunity, {
    slug: `race-${count}-${Date.now()}`,
    name: 'Racers',
    timeZone: 'UTC',
    joinPolicy,
  });
  return made.communityId;
}

async function messages(memberId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('outbox').select(['type', 'payload']).orderBy('id').execute();
  return rows.filter((r) => r.payload.includes(memberId)).map((r) => r.type);
}

describe('two calls that have both read before either writes', () => {
  it('makes one membership when one address joins twice at the same time; the other is alreadyMember', async () => {
    const communityId = await community('open');
    const answers = await atOnce(
      [joinCommunity, { communityId, name: 'Ada Racer', email: 'ada@example.org' }],
      [joinCommunity, { communityId, name: 'Ada R.', email: 'ADA@example.org' }],
    );
    expect(answers.map((a) => (typeof a === 'string' ? a : a.status)).sort()).toEqual([
      'active',
      'alreadyMember',
    ]);
    const rows = await ctx.db
      .selectFrom('community_members')
      .select('id')
      .where('community_id', '=', communityId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await messages(rows[0]!.id)).toEqual(['member.joined']);
  });

  it('approves once when two approvals meet: one member.joined', async () => {
    const communityId = await community('approval');
    const { memberId } = await call(joinCommunity, {
      communityId,
      name: 'Bo Racer',
      email: 'bo@example.org',
    });
    const answers = await atOnce(
      [approveCommunityMember, { communityId, memberId }],
      [approveCommunityMember, { communityId, memberId }],
    );
    expect(answers.map((a) => a.status)).toEqual(['active', 'active']);
    expect(await messages(memberId)).toEqual(['member.joined']);
  });

  it('ends a membership once when two removals meet: one member.left', async () => {
    const communityId = await community('open');
    const { memberId } = await call(joinCommunity, {
      communityId,
      name: 'Cy Racer',
      email: 'cy@example.org',
    });
    const answers = await atOnce(
      [leaveCommunity, { communityId, memberId }],
      [leaveCommunity, { communityId, memberId }],
    );
    expect(answers.map((a) => a.status)).toEqual(['left', 'left']);
    expect(await messages(memberId)).toEqual(['member.joined', 'member.left']);
  });
});
