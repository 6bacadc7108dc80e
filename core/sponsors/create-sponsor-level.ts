import * as v from 'valibot';
import { toFlag } from '../../db/values';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { exportWindowNeedsDownload, levelFields } from './level-fields';
import { sponsorLevelSchema, sponsorLevelView } from './sponsor-level-view';

export const createSponsorLevel = defineOperation({
  name: 'createSponsorLevel',
  title: 'Add a sponsor level',
  description:
    'Adds a sponsor level (Gold, Silver, ...) to an event: its rank, colour, allowances and whether its sponsors may download their leads, until when. Needs sponsors:write.',
  scope: 'sponsors:write',
  effect: 'write',
  activity: {
    resourceType: 'sponsorLevel',
    resourceId: (_input, level) => level.levelId,
    summary: (_input, level) => level.name,
  },
  idempotent: true,
  extension: true,
  module: 'sponsors',
  etag: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(levelFields, ['name', 'rank', 'colour']),
  }),
  output: sponsorLevelSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    exportWindowNeedsDownload(input.leadDownload ?? false, input.leadExportUntil ?? null, errors);
    errors.throwIfAny();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      name: input.name.trim(),
      rank: input.rank,
      colour: input.colour.toLowerCase(),
      staff_allowance: input.staffAllowance ?? 0,
      free_tickets: input.freeTickets ?? 0,
      lead_download: toFlag(input.leadDownload ?? false),
      lead_export_until: input.leadExportUntil ?? null,
      discount_codes: input.discountCodes ?? 0,
      discount_percent: input.discountPercent ?? 0,
      logo_on_page: toFlag(input.logoOnPage ?? false),
      logo_on_screens: toFlag(input.logoOnScreens ?? false),
      logo_on_badges: toFlag(input.logoOnBadges ?? false),
      sponsored_session: toFlag(input.sponsoredSession ?? false),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('sponsor_levels').values(row).execute();
    return sponsorLevelView(row);
  },
});
