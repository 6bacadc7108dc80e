// An event is a community's meetup when it names the community: the community's page lists it
// (published and still to come) and the community's counts follow. The Event resource itself stays
// as the API defines it, so the link is set here, by an operation of the communities area.
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation, unchanged } from '../platform/pipeline/operation';
import { updateWorkspaceRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { loadCommunity } from './community-view';
import { communityRefOf, communityRefSchema } from './member-view';

export const eventCommunitySchema = v.object({
  eventId: uuid('The event id.'),
  community: v.pipe(
    v.nullable(communityRefSchema),
    v.description('The community whose meetup the event is, or null for none.'),
  ),
});

export const setEventCommunity = defineOperation({
  name: 'setEventCommunity',
  title: "Set an event's community",
  description:
    'Makes an event a meetup of a community (its page lists it once published), or of none with null. Needs communities:write.',
  scope: 'communities:write',
  effect: 'write',
  changesEvent: true,
  extension: true,
  repeatable: true,
  problems: ['notFound'],
  activity: {
    resourceType: 'event',
    resourceId: (_input, link) => link.eventId,
    summary: (_input, link) => (link.community ? `meetup of ${link.community.name}` : 'no community'),
  },
  input: v.object({
    eventId: uuid('The event id.'),
    communityId: v.pipe(
      v.nullable(v.pipe(v.string(), v.uuid())),
      v.description('The community, or null to unlink the event from its community.'),
    ),
  }),
  output: eventCommunitySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const community = input.communityId === null ? null : await loadCommunity(ctx, input.communityId);
    const answer = { eventId: event.id, community: community && communityRefOf(community) };
    if (event.community_id === (community?.id ?? null)) {
      return unchanged(answer);
    }
    await updateWorkspaceRow(
      ctx,
      'events',
      event.id,
      'event',
      { community_id: community?.id ?? null, ...(await changedNow(ctx)) },
      { code: 'eventNotFound' },
    );
    return answer;
  },
});
