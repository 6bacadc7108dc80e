import * as v from 'valibot';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { addFields } from '../platform/field-lists';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { checkLevelOfEvent, nextPlaceInLevel, sponsorFields } from './sponsor-fields';
import { loadSponsorView } from './sponsor-rows';
import { sponsorSchema, sponsorView } from './sponsor-view';

export const createSponsor = defineOperation({
  name: 'createSponsor',
  title: 'Add a sponsor',
  description:
    'Adds a sponsor to an event, at one of its levels (or none) and a place within it, with its links, description and booth. Needs sponsors:write.',
  scope: 'sponsors:write',
  effect: 'write',
  activity: {
    resourceType: 'sponsor',
    resourceId: (_input, sponsor) => sponsor.sponsorId,
    summary: (_input, sponsor) => sponsor.name,
  },
  idempotent: true,
  extension: true,
  module: 'sponsors',
  etag: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...addFields(sponsorFields, ['name']),
  }),
  output: sponsorSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const errors = new FieldErrors();
    await checkLevelOfEvent(ctx, event.id, input.levelId, errors);
    errors.throwIfAny();
    const levelId = input.levelId ?? null;
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      level_id: levelId,
      name: input.name.trim(),
      website: input.website ?? null,
      logo_url: input.logoUrl ?? null,
      description: input.description ?? null,
      booth: input.booth ?? null,
      sort_order: input.sortOrder ?? (await nextPlaceInLevel(ctx, event.id, levelId)),
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('sponsors').values(row).execute();
    return sponsorView(await loadSponsorView(ctx, row.id));
  },
});
