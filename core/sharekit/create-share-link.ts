import * as v from 'valibot';
import { shareChannels } from '../../db/values';
import { type FieldErrors, textOf } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { emailAddress, oneLine, uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { newShareCode } from './share-link-code';
import { shareLinkSchema, shareLinksOf, shareLinkView } from './share-link-view';
import { type SharerChoice, sharerForLink } from './sharer-for-link';

const whose = ['attendeeId', 'speakerId', 'sponsorId'] as const;

export const createShareLink = defineOperation({
  name: 'createShareLink',
  title: 'Make a share link',
  description:
    "Makes a share link on one channel for an attendee, a speaker or a sponsor's named person; an existing one is given back. Its shortUrl counts clicks; a registration with its code as shareRef counts too. Needs sharekit:write.",
  scope: 'sharekit:write',
  effect: 'write',
  extension: true,
  idempotent: true,
  etag: true,
  module: 'sharekit',
  activity: {
    resourceType: 'shareLink',
    resourceId: (_input, link) => link.linkId,
    summary: (_input, link) => `${link.channel} link ${link.code}`,
  },
  problems: ['attendeeNotFound', 'notFound'],
  input: v.object({
    eventId: uuid('The event id.'),
    channel: v.pipe(
      v.picklist(shareChannels),
      v.description('Where it will be shared: linkedin, x, facebook, email, messaging or other.'),
    ),
    attendeeId: v.optional(uuid('For an attendee: their ticket at this event.')),
    speakerId: v.optional(uuid('For a speaker of this event.')),
    sponsorId: v.optional(uuid('For a person sharing for a sponsor of this event; give name and email.')),
    name: v.optional(
      v.pipe(
        v.string(),
        oneLine,
        v.maxLength(200),
        v.description(
          'With sponsorId: who shares, as the leaderboard shows them. Personal data, shown with people:read.',
        ),
      ),
    ),
    email: v.optional(
      emailAddress(
        'With sponsorId: their email address, never shown; kept so their data can be erased when they ask.',
      ),
    ),
  }),
  rules: sharerRules,
  output: shareLinkSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const sharer = await sharerForLink(ctx, event, choiceOf(input));
    const existing = await shareLinksOf(ctx, event.id)
      .where('share_links.sharer_id', '=', sharer.id)
      .where('share_links.channel', '=', input.channel)
      .orderBy('share_links.created_utc')
      .executeTakeFirst();
    if (existing) {
      // A sharer with a link was there before: nothing was made.
      return unchanged(await shareLinkView(ctx, event, existing));
    }
    const stamp = await madeNow(ctx);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      sharer_id: sharer.id,
      channel: input.channel,
      code: await newShareCode(ctx, event.id),
      shared_utc: stamp.created_utc,
      removed_utc: null,
      ...stamp,
    };
    await ctx.db.insertInto('share_links').values(row).execute();
    return shareLinkView(ctx, event, {
      ...row,
      kind: sharer.kind,
      attendee_id: sharer.attendee_id,
      speaker_id: sharer.speaker_id,
      sponsor_id: sharer.sponsor_id,
    });
  },
});

/** Exactly one of attendeeId, speakerId and sponsorId; a name and an email with a sponsor only. */
function sharerRules(input: Record<string, unknown>, errors: FieldErrors): void {
  const given = whose.filter((field) => input[field] !== undefined);
  if (given.length !== 1) {
    const fields = given.length === 0 ? whose : given;
    for (const field of fields)
      errors.add(field, 'Give exactly one of attendeeId, speakerId and sponsorId: whose link it is.');
  }
  const forSponsor = input.sponsorId !== undefined;
  for (const field of ['name', 'email'] as const) {
    if (forSponsor && (input[field] === undefined || textOf(input[field])?.trim() === ''))
      errors.add(field, `A person sharing for a sponsor needs their ${field}.`);
    if (!forSponsor && input[field] !== undefined)
      errors.add(
        field,
        `Only a person sharing for a sponsor is named here; an attendee's or speaker's ${field} comes from their ticket or profile.`,
      );
  }
}

function choiceOf(input: {
  attendeeId?: string;
  speakerId?: string;
  sponsorId?: string;
  name?: string;
  email?: string;
}): SharerChoice {
  if (input.attendeeId) return { attendeeId: input.attendeeId };
  if (input.speakerId) return { speakerId: input.speakerId };
  return { sponsorId: input.sponsorId!, name: input.name!, email: input.email! };
}
