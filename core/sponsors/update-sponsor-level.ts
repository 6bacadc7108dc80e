import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { exportWindowNeedsDownload, levelFields } from './level-fields';
import { sponsorLevelSchema, sponsorLevelView } from './sponsor-level-view';
import { loadSponsorLevel } from './sponsor-rows';

const flagOr = (value: boolean | undefined, current: 0 | 1) =>
  value === undefined ? current : toFlag(value);

export const updateSponsorLevel = defineOperation({
  name: 'updateSponsorLevel',
  title: 'Change a sponsor level',
  description:
    "Changes a sponsor level; send only what changes. Switching leadDownload off ends its export window too. Its sponsors follow the level's new rank. Needs sponsors:write.",
  scope: 'sponsors:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'sponsors',
  activity: { resourceType: 'sponsorLevel', resourceId: (_input, level) => level.levelId },
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('sponsor_levels', (input) => input.levelId),
    async current(ctx, input) {
      return sponsorLevelView(await loadSponsorLevel(ctx, input.eventId, input.levelId));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    levelId: uuid('The level id.'),
    ...changeFields(levelFields),
  }),
  output: sponsorLevelSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const level = await loadSponsorLevel(ctx, event.id, input.levelId);
    const leadDownload = input.leadDownload ?? level.lead_download === 1;
    // A download switched off takes its window with it; a window is only set on a download allowed.
    const leadExportUntil =
      input.leadExportUntil !== undefined
        ? input.leadExportUntil
        : leadDownload
          ? level.lead_export_until
          : null;
    const errors = new FieldErrors();
    exportWindowNeedsDownload(leadDownload, leadExportUntil, errors);
    errors.throwIfAny();
    const next = {
      ...level,
      name: input.name?.trim() ?? level.name,
      rank: input.rank ?? level.rank,
      colour: input.colour?.toLowerCase() ?? level.colour,
      staff_allowance: input.staffAllowance ?? level.staff_allowance,
      free_tickets: input.freeTickets ?? level.free_tickets,
      lead_download: toFlag(leadDownload),
      lead_export_until: leadExportUntil,
      discount_codes: input.discountCodes ?? level.discount_codes,
      discount_percent: input.discountPercent ?? level.discount_percent,
      logo_on_page: flagOr(input.logoOnPage, level.logo_on_page),
      logo_on_screens: flagOr(input.logoOnScreens, level.logo_on_screens),
      logo_on_badges: flagOr(input.logoOnBadges, level.logo_on_badges),
      sponsored_session: flagOr(input.sponsoredSession, level.sponsored_session),
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'sponsor_levels', level.id, 'sponsor level', next);
    // Its sponsors show the level's name and rank: they changed too, for updatedSince.
    if (next.name !== level.name || next.rank !== level.rank)
      await ctx.db
        .updateTable('sponsors')
        .set({ updated_utc: next.updated_utc, change_seq: next.change_seq })
        .where('level_id', '=', level.id)
        .execute();
    return sponsorLevelView(next);
  },
});
