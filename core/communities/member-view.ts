// The public CommunityMember resource. Name and email are personal data. The communities area's
// operations use this view; member messages carry it.
import * as v from 'valibot';
import { declarePersonalFields } from '../platform/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export const memberStatuses = ['active', 'pending', 'left'] as const;

export const memberPersonal = declarePersonalFields({
  resource: 'community member',
  idField: 'memberId',
  fields: { name: 'name', email: 'email' },
});

export const communityRefSchema = v.object({
  communityId: uuid('The community id.'),
  slug: text('Its address after /c/.'),
  name: text('Its name.'),
});

export const memberSchema = v.object({
  memberId: uuid('The member id.'),
  communityId: uuid('The community id.'),
  name: v.nullable(text('Personal data.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  language: text('Language of the messages they get.'),
  status: v.picklist(memberStatuses),
  announcements: v.boolean(),
  reminders: v.boolean(),
  joinedUtc: dateTime('When they joined.'),
  approvedUtc: v.nullable(dateTime('When the organiser approved them.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});
