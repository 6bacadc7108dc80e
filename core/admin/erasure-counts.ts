// What an erasure answers and logs: the rows erased of each declared personal resource, named by
// its table in camelCase (pass_holders -> passHolders), in the declarations' order.
import * as v from 'valibot';
import type { PersonalResource } from '../platform/pipeline/personal-data';
import { personalResources } from './personal-resources';

export type ErasureCounts = Record<string, number>;

export function countName(declaration: PersonalResource<string, string>): string {
  return declaration.table.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Every resource at 0, so the answer lists each one even when the person had none of it. */
export function noneErased(): ErasureCounts {
  return Object.fromEntries(personalResources.map((r) => [countName(r), 0]));
}

export const erasureCountsSchema = v.object(
  Object.fromEntries(
    personalResources.map((r) => [
      countName(r),
      v.pipe(v.number(), v.description(`${r.resource} rows erased`)),
    ]),
  ),
);

/** The activity log's summary: "2 ticket(s), 1 order(s), ...". */
export function erasureSummary(counts: ErasureCounts): string {
  return personalResources
    .map((r) => `${counts[countName(r)] ?? 0} ${r.countedAs ?? r.resource}(s)`)
    .join(', ');
}
