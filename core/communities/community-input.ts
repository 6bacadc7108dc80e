// Input fields and rules shared by creating and changing a community.
import * as v from 'valibot';
import { joinPolicies } from '../../db/values';
import { slugMessage, slugPattern } from '../events';
import { type FieldErrors, nameNotBlank, textOf } from '../platform/field-errors';
import type { UniqueProblem } from '../platform/pipeline/operation';
import { languageTagMessage, languageTagPattern, multiLine, oneLine } from '../platform/schemas';
import { isTimeZone } from '../platform/time';

export const communityFields = {
  slug: v.pipe(
    v.string(),
    v.regex(slugPattern, slugMessage),
    v.maxLength(80),
    v.description('Its address after /c/: lowercase letters, digits and hyphens; unique.'),
  ),
  name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200), v.description('Its name.')),
  summary: v.nullable(v.pipe(v.string(), oneLine, v.maxLength(300), v.description('One line about it.'))),
  description: v.nullable(v.pipe(v.string(), multiLine, v.maxLength(20_000), v.description('Markdown.'))),
  city: v.nullable(
    v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(100), v.description('Where it meets in person.')),
  ),
  online: v.pipe(v.boolean(), v.description('It meets online. Default false.')),
  languages: v.pipe(
    v.array(v.pipe(v.string(), v.regex(languageTagPattern, languageTagMessage))),
    v.minLength(1),
    v.maxLength(20),
    v.description('Language tags it meets in; the first is the default for members. Default ["en"].'),
  ),
  timeZone: v.pipe(v.string(), oneLine, v.description('IANA time zone of its meetups, e.g. Asia/Tokyo.')),
  joinPolicy: v.pipe(
    v.picklist(joinPolicies),
    v.description(
      'open (members are active at once, the default) or approval (the organiser approves each).',
    ),
  ),
};

/** Rules beyond the schema, on the input as sent. */
export function checkCommunityInput(input: Record<string, unknown>, errors: FieldErrors): void {
  const zone = textOf(input.timeZone);
  if (zone !== undefined && !isTimeZone(zone)) errors.add('timeZone', `"${zone}" is not an IANA time zone.`);
  nameNotBlank(input, errors);
}

/** Declared for the unique index on communities.slug: the address /c/{slug} is another community's. */
export const communitySlugTaken: UniqueProblem<{ slug?: string }> = {
  code: 'slugTaken',
  detail: (input) =>
    `Another community already has the slug "${input.slug}"; community addresses are unique.`,
};
