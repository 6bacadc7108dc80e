// The guards of memberships under concurrent calls, each met by two calls that have both done their
// reads before either writes (test/support/interleave.ts), on either store: one address joins a
// community once (the unique index of migration 0022), and a member approved or removed twice at the
// same moment becomes a member, or stops being one, once, with one message.
import { describe, expect, it } from 'vitest';
import { approveCommunityMember } from '../../core/communities/approve-community-member';
import { createCommunity } from '../../core/communities/create-community';
import { joinCommunity } from '../../core/communities/join-community';
import { leaveCommunity } from '../../core/communities/leave-community';
import { raceHarness } from '../support/race-harness';

const { call, atOnce, db } = raceHarness('Member races');

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
  const rows = await db().selectFrom('outbox').select(['type', 'payload']).orderBy('id').execute();
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
    const rows = await db()
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
