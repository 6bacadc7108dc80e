// Import of communities and their members. A member who becomes active is member.joined; one whose
// status becomes left is member.left (see ../messages.ts).
import * as v from 'valibot';
import { communityStatuses, joinPolicies, memberStatuses } from '../../../db/values';
import { slugPattern } from '../../events';
import { oneLine } from '../../platform/schemas';
import { isTimeZone } from '../../platform/time';
import { email, key, language, line, list, name, orFalse, orNull, utc, words } from '../fields';
import { flag, type ImportPlan, json } from '../plan';

export const memberFormat = v.strictObject({
  key: key('member'),
  name: orNull(name('Name. Personal data.')),
  email: orNull(email('Email address. Personal data.')),
  language: v.optional(language),
  status: v.optional(v.picklist(memberStatuses), 'active'),
  announcements: v.optional(v.boolean(), true),
  reminders: v.optional(v.boolean(), true),
  joinedUtc: utc('When they joined (or asked to)'),
  approvedUtc: orNull(utc('When the organiser approved them')),
  leftUtc: orNull(utc('When they left')),
});

export const communityFormat = v.strictObject({
  key: key('community'),
  slug: v.pipe(v.string(), v.regex(slugPattern), v.maxLength(80), v.description('Its address: /c/{slug}.')),
  name: name('Name.'),
  summary: orNull(line('One line about it.', 300)),
  description: orNull(words('Markdown.', 20_000)),
  city: orNull(name('City.', 100)),
  online: orFalse('It meets online.'),
  languages: v.optional(v.pipe(v.array(language), v.minLength(1), v.maxLength(20)), ['en']),
  timeZone: v.pipe(v.string(), oneLine, v.description('IANA time zone, e.g. Asia/Tokyo.')),
  joinPolicy: v.optional(v.picklist(joinPolicies), 'open'),
  status: v.optional(v.picklist(communityStatuses), 'published'),
  members: list(memberFormat, 'Its members.'),
});

export type CommunityInput = v.InferOutput<typeof communityFormat>;

export function planCommunity(plan: ImportPlan, workspaceId: string, c: CommunityInput, path: string): void {
  const id = plan.claim('community', '', c.key, path);
  if (!isTimeZone(c.timeZone)) plan.issue(`${path}.timeZone`, `"${c.timeZone}" is not an IANA time zone.`);
  plan.add(
    'communities',
    {
      id,
      workspace_id: workspaceId,
      slug: c.slug,
      name: c.name,
      summary: c.summary,
      description: c.description,
      city: c.city,
      online: flag(c.online),
      languages: json(c.languages),
      time_zone: c.timeZone,
      join_policy: c.joinPolicy,
      status: c.status,
    },
    path,
  );
  c.members.forEach((m, i) => {
    const at = `${path}.members[${i}]`;
    if ((m.status === 'left') !== (m.leftUtc !== null))
      plan.issue(`${at}.leftUtc`, 'A member who left has leftUtc, and only they do.');
    if (m.status === 'pending' && m.approvedUtc !== null)
      plan.issue(`${at}.approvedUtc`, 'A pending member is not approved yet.');
    plan.add(
      'community_members',
      {
        id: plan.claim('member', c.key, m.key, at),
        workspace_id: workspaceId,
        community_id: id,
        name: m.name,
        email: m.email,
        language: m.language ?? c.languages[0]!,
        status: m.status,
        announcements: flag(m.announcements),
        reminders: flag(m.reminders),
        joined_utc: plan.utc(m.joinedUtc, `${at}.joinedUtc`),
        approved_utc: plan.utcOrNull(m.approvedUtc, `${at}.approvedUtc`),
        left_utc: plan.utcOrNull(m.leftUtc, `${at}.leftUtc`),
      },
      at,
      { erased: 0 },
    );
  });
}
