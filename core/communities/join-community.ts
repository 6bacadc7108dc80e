import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { nameNotBlank } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { emailAddress, languageTagMessage, languageTagPattern, personName, uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { loadCommunity } from './community-view';
import { memberJoined } from './member-messages';
import { memberSchema, memberView } from './member-view';

const alreadyMemberDetail =
  'Someone with this email address is already a member of this community, or waiting for approval.';

export const joinCommunity = defineOperation({
  name: 'joinCommunity',
  title: 'Add a member',
  description:
    'A person joins a community: active at once, or waiting for approval where the community approves members. One membership per email address. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  problems: ['notFound', 'alreadyMember'],
  activity: {
    resourceType: 'communityMember',
    resourceId: (_input, member) => member.memberId,
    summary: (_input, member) => member.status,
  },
  // The unique index decides, so the same address joining twice at once makes one membership.
  unique: {
    'community_members.community_id, community_members.email': {
      code: 'alreadyMember',
      detail: () => alreadyMemberDetail,
    },
  },
  input: v.object({
    communityId: uuid('The community id.'),
    name: personName,
    email: v.pipe(emailAddress('Their email address. Personal data.'), v.maxLength(254)),
    language: v.optional(
      v.pipe(
        v.string(),
        v.regex(languageTagPattern, languageTagMessage),
        v.description("Language of the messages they get; default the community's first language."),
      ),
    ),
    announcements: v.optional(
      v.pipe(v.boolean(), v.description('They receive announcements. Default true.')),
    ),
    reminders: v.optional(v.pipe(v.boolean(), v.description('They receive meetup reminders. Default true.'))),
  }),
  output: memberSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    // Held as the member will name it: a removal of the community meanwhile waits for this join, or
    // has removed it and the join answers notFound, not a foreign-key fault.
    const community = await loadCommunity(ctx, input.communityId, 'reference');
    const email = input.email.trim().toLowerCase();
    const existing = await ctx.db
      .selectFrom('community_members')
      .select('id')
      .where('community_id', '=', community.id)
      .where('email', '=', email)
      .where('status', '<>', 'left')
      .executeTakeFirst();
    if (existing) throw problem('alreadyMember', alreadyMemberDetail, { memberId: existing.id });
    const stamp = await madeNow(ctx);
    const member = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      community_id: community.id,
      name: input.name.trim(),
      email,
      language: input.language ?? (JSON.parse(community.languages) as string[])[0]!,
      status: community.join_policy === 'approval' ? ('pending' as const) : ('active' as const),
      announcements: toFlag(input.announcements ?? true),
      reminders: toFlag(input.reminders ?? true),
      joined_utc: stamp.created_utc,
      approved_utc: null,
      left_utc: null,
      erased: toFlag(false),
      ...stamp,
    };
    await ctx.db.insertInto('community_members').values(member).execute();
    // A member joins when they become active: at once here, or when the organiser approves them.
    if (member.status === 'active') await memberJoined.emit(ctx, { community, member });
    return memberView(ctx.actor, member);
  },
});
