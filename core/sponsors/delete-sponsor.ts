// Removing a sponsor with leads is refused unless withLeads says to remove them too: leads are the
// visitors who agreed to share their details with that sponsor, and the sponsor may still be owed
// them (its level's download window), so they go only when the organiser says so, never by accident.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { loadSponsor, loadSponsorView } from './sponsor-rows';
import { sponsorView } from './sponsor-view';

export const deleteSponsor = defineOperation({
  name: 'deleteSponsor',
  title: 'Remove a sponsor',
  description:
    'Removes a sponsor. One with leads is refused, naming how many, unless withLeads is true: then its leads are removed with it. Needs sponsors:write.',
  scope: 'sponsors:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'sponsors',
  activity: { resourceType: 'sponsor', resourceId: (_input, deleted) => deleted.sponsorId },
  problems: ['notFound', 'sponsorHasLeads'],
  ifMatch: {
    hold: heldRow('sponsors', (input) => input.sponsorId),
    async current(ctx, input) {
      const sponsor = await loadSponsor(ctx, input.eventId, input.sponsorId);
      return sponsorView(await loadSponsorView(ctx, sponsor.id));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    sponsorId: uuid('The sponsor id.'),
    withLeads: v.optional(
      v.pipe(
        v.boolean(),
        v.description("Remove the sponsor's leads with it. Default false: refused while it has any."),
      ),
    ),
  }),
  output: v.object({ sponsorId: uuid('The sponsor removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held first by invoke (ifMatch.hold, FOR UPDATE), so a lead captured meanwhile is counted, not
    // removed unasked.
    const sponsor = await loadSponsor(ctx, event.id, input.sponsorId);
    const { n } = await ctx.db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sponsor_id', '=', sponsor.id)
      .executeTakeFirstOrThrow();
    const leads = Number(n);
    if (leads > 0 && input.withLeads !== true)
      throw problem(
        'sponsorHasLeads',
        `${sponsor.name} has ${leads === 1 ? '1 lead' : `${leads} leads`}; send withLeads true to remove them with it.`,
        { leadCount: leads },
      );
    await ctx.db.deleteFrom('leads').where('sponsor_id', '=', sponsor.id).execute();
    await ctx.db.deleteFrom('sponsors').where('id', '=', sponsor.id).execute();
    return { sponsorId: sponsor.id, deleted: true as const };
  },
});
