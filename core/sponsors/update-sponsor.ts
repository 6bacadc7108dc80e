import * as v from 'valibot';
import { FieldErrors, nameNotBlank } from '../platform/field-errors';
import { changeFields } from '../platform/field-lists';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { checkLevelOfEvent, nextPlaceInLevel, sponsorFields } from './sponsor-fields';
import { loadSponsor, loadSponsorView } from './sponsor-rows';
import { sponsorSchema, sponsorView } from './sponsor-view';

export const updateSponsor = defineOperation({
  name: 'updateSponsor',
  title: 'Change a sponsor',
  description:
    'Changes a sponsor; send only what changes. Moved to another level, it goes last there unless sortOrder is sent. Needs sponsors:write.',
  scope: 'sponsors:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'sponsors',
  activity: { resourceType: 'sponsor', resourceId: (_input, sponsor) => sponsor.sponsorId },
  problems: ['notFound'],
  etag: true,
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
    ...changeFields(sponsorFields),
  }),
  output: sponsorSchema,
  rules: nameNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const sponsor = await loadSponsor(ctx, event.id, input.sponsorId);
    const errors = new FieldErrors();
    await checkLevelOfEvent(ctx, event.id, input.levelId, errors);
    errors.throwIfAny();
    const levelId = input.levelId === undefined ? sponsor.level_id : input.levelId;
    const moved = levelId !== sponsor.level_id;
    const keep = <T>(sent: T | undefined, current: T) => (sent === undefined ? current : sent);
    const next = {
      level_id: levelId,
      name: input.name?.trim() ?? sponsor.name,
      website: keep(input.website, sponsor.website),
      logo_url: keep(input.logoUrl, sponsor.logo_url),
      description: keep(input.description, sponsor.description),
      booth: keep(input.booth, sponsor.booth),
      sort_order:
        input.sortOrder ?? (moved ? await nextPlaceInLevel(ctx, event.id, levelId) : sponsor.sort_order),
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'sponsors', sponsor.id, 'sponsor', next);
    return sponsorView(await loadSponsorView(ctx, sponsor.id));
  },
});
