import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { sponsorLevelView } from './sponsor-level-view';
import { loadSponsorLevel } from './sponsor-rows';

export const deleteSponsorLevel = defineOperation({
  name: 'deleteSponsorLevel',
  title: 'Remove a sponsor level',
  description:
    'Removes a sponsor level no sponsor has; while sponsors have it, it is refused, naming how many (move them first with update_sponsor). Needs sponsors:write.',
  scope: 'sponsors:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'sponsors',
  activity: { resourceType: 'sponsorLevel', resourceId: (_input, deleted) => deleted.levelId },
  problems: ['notFound', 'levelInUse'],
  ifMatch: {
    hold: heldRow('sponsor_levels', (input) => input.levelId),
    async current(ctx, input) {
      return sponsorLevelView(await loadSponsorLevel(ctx, input.eventId, input.levelId));
    },
  },
  input: v.object({ eventId: uuid('The event id.'), levelId: uuid('The level id.') }),
  output: v.object({ levelId: uuid('The level removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held first by invoke (ifMatch.hold, FOR UPDATE), so a sponsor given this level meanwhile is counted,
    // not left without one.
    const level = await loadSponsorLevel(ctx, event.id, input.levelId);
    const { n } = await ctx.db
      .selectFrom('sponsors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('level_id', '=', level.id)
      .executeTakeFirstOrThrow();
    const sponsors = Number(n);
    if (sponsors > 0)
      throw problem(
        'levelInUse',
        `${sponsors === 1 ? '1 sponsor has' : `${sponsors} sponsors have`} the level ${level.name}; give them another level (or none) first.`,
        { sponsorCount: sponsors },
      );
    await ctx.db.deleteFrom('sponsor_levels').where('id', '=', level.id).execute();
    return { levelId: level.id, deleted: true as const };
  },
});
