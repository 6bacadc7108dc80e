// Rows counted per venue day by the database, not row by row here: each day's start as a UTC
// moment (a zone's day is not always 24 hours), and a CASE that names the day a stored moment falls
// in. Moments are stored as ISO strings in UTC with milliseconds, so they compare as text.
import type { ExpressionBuilder } from 'kysely';
import type { DateTime } from 'luxon';

/** The UTC start of each of `count` venue days from `first`, and the end of the last. */
export function venueDayBounds(first: DateTime, count: number): string[] {
  return Array.from({ length: count + 1 }, (_, i) => first.plus({ days: i }).toUTC().toISO()!);
}

/** Which day (0 = the first) `column` falls in; null outside them. */
// biome-ignore lint/suspicious/noExplicitAny: any table holding the column.
export function venueDayOf(eb: ExpressionBuilder<any, any>, column: string, bounds: string[]) {
  let cases = eb.case().when(eb.ref(column), '<', bounds[0]!).then(eb.lit(null));
  for (let day = 0; day < bounds.length - 1; day += 1)
    cases = cases.when(eb.ref(column), '<', bounds[day + 1]!).then(eb.lit(day)) as typeof cases;
  return cases.else(eb.lit(null)).end();
}
