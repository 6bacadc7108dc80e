// What an erasure answers and logs: the rows erased of each declared personal resource, named by
// its table in camelCase (pass_holders -> passHolders), in the declarations' order, then the rows
// whose link to the person was cut (attendee links).
import * as v from 'valibot';
import type { AttendeeLink, PersonalResource } from '../platform/pipeline/personal-data';
import { attendeeLinks, personalResources } from './personal-resources';

export type ErasureCounts = Record<string, number>;

export function countName(declaration: PersonalResource<string, string> | AttendeeLink): string {
  return declaration.table.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** What an erasure counts: the personal resources, then the attendee links. */
const counted: readonly (PersonalResource<string, string> | AttendeeLink)[] = [
  ...personalResources,
  ...attendeeLinks,
];

const countedAs = (r: PersonalResource<string, string> | AttendeeLink) =>
  'countedAs' in r && r.countedAs ? r.countedAs : r.resource;

/** Every resource at 0, so the answer lists each one even when the person had none of it. */
export function noneErased(): ErasureCounts {
  return Object.fromEntries(counted.map((r) => [countName(r), 0]));
}

export const erasureCountsSchema = v.object(
  Object.fromEntries([
    ...personalResources.map((r) => [
      countName(r),
      v.pipe(v.number(), v.description(`${r.resource} rows erased`)),
    ]),
    ...attendeeLinks.map((l) => [
      countName(l),
      v.pipe(v.number(), v.description(`${l.resource} rows kept, no longer linked to the person`)),
    ]),
  ]),
);

/** The activity log's summary: "2 ticket(s), 1 order(s), ...". */
export function erasureSummary(counts: ErasureCounts): string {
  return counted.map((r) => `${counts[countName(r)] ?? 0} ${countedAs(r)}(s)`).join(', ');
}
