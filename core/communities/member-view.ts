// The public CommunityMember resource. Name and email are personal data: null without people:read
// and once the person erased their data. The members list uses this view; member messages carry it.
import * as v from 'valibot';
import type { CommunityMemberRow, CommunityRow } from '../../db/schema';
import { memberStatuses } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export const memberPersonal = declarePersonal({
  resource: 'community member',
  idField: 'memberId',
  table: 'community_members',
  fields: { name: 'name', email: 'email' },
  emailColumn: 'email',
});

export const communityRefSchema = v.object({
  communityId: uuid('The community id.'),
  slug: text('Its address after /c/.'),
  name: text('Its name.'),
});

/** How messages name the community they are about. */
export function communityRefOf(row: Pick<CommunityRow, 'id' | 'slug' | 'name'>) {
  return { communityId: row.id, slug: row.slug, name: row.name };
}

export const memberSchema = v.object({
  memberId: uuid('The member id.'),
  communityId: uuid('The community id.'),
  name: v.nullable(text('Personal data: null without people:read.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data: null without people:read.'))),
  language: text('Language of the messages they get.'),
  status: v.pipe(
    v.picklist(memberStatuses),
    v.description('active, pending (waiting for the organiser to approve) or left.'),
  ),
  announcements: v.pipe(v.boolean(), v.description('They receive announcements.')),
  reminders: v.pipe(v.boolean(), v.description('They receive meetup reminders.')),
  joinedUtc: dateTime('When they joined (or asked to).'),
  approvedUtc: v.nullable(dateTime('When the organiser approved them (communities that approve members).')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type MemberView = v.InferOutput<typeof memberSchema>;

export function memberView(reader: Reader, row: CommunityMemberRow): MemberView {
  return applyPersonalData(
    reader,
    {
      memberId: row.id,
      communityId: row.community_id,
      name: row.name,
      email: row.email,
      language: row.language,
      status: row.status,
      announcements: row.announcements === 1,
      reminders: row.reminders === 1,
      joinedUtc: row.joined_utc,
      approvedUtc: row.approved_utc,
      updatedUtc: row.updated_utc,
    },
    memberPersonal,
    row.erased === 1,
  );
}
