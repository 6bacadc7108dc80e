// Input fields of a sponsor, shared by adding and changing one; its level must be one of the
// event's, and a new place goes last within the level.
import * as v from 'valibot';
import { referencedRow } from '../../db/dialect';
import type { Ctx } from '../platform/context';
import type { FieldErrors } from '../platform/field-errors';
import { multiLine, oneLine, sortOrderInput, uuid } from '../platform/schemas';

const link = (what: string) =>
  v.nullable(
    v.pipe(
      v.string(),
      oneLine,
      v.url(),
      v.startsWith('https://'),
      v.maxLength(2000),
      v.description(`${what}; null clears it.`),
    ),
  );
const optionalText = (max: number, what: string, lines = oneLine) =>
  v.nullable(v.pipe(v.string(), lines, v.maxLength(max), v.description(`${what}; null clears it.`)));

export const sponsorFields = {
  name: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(200),
    v.description('As the event shows it.'),
  ),
  levelId: v.nullable(uuid("One of the event's sponsor levels; null: none (listed last).")),
  website: link('An https address of its website'),
  logoUrl: link('An https address of its logo'),
  description: optionalText(2000, 'What it does', multiLine),
  booth: optionalText(200, 'Where its stand is at the venue'),
  sortOrder: v.pipe(sortOrderInput, v.description('Place within its level. Default: last.')),
};

/** Names levelId when it is not a level of this event. */
export async function checkLevelOfEvent(
  ctx: Ctx,
  eventId: string,
  levelId: string | null | undefined,
  errors: FieldErrors,
): Promise<void> {
  if (!levelId) return;
  // Held as the sponsor will name it (db/dialect.ts referencedRow): a removal of the level meanwhile
  // waits and counts this sponsor, or has removed it and the level is not found here.
  const level = await referencedRow(
    ctx.db,
    ctx.db
      .selectFrom('sponsor_levels')
      .select('id')
      .where('id', '=', levelId)
      .where('event_id', '=', eventId),
  ).executeTakeFirst();
  if (!level) errors.add('levelId', `${levelId} is not a sponsor level of this event.`);
}

/** The place after the last sponsor of a level (or of those without one). */
export async function nextPlaceInLevel(ctx: Ctx, eventId: string, levelId: string | null): Promise<number> {
  const row = await ctx.db
    .selectFrom('sponsors')
    .select((eb) => eb.fn.max<number | null>('sort_order').as('last'))
    .where('event_id', '=', eventId)
    .where((eb) => (levelId === null ? eb('level_id', 'is', null) : eb('level_id', '=', levelId)))
    .executeTakeFirst();
  return (row?.last ?? 0) + 1;
}
