import * as v from 'valibot';
import { dependentsOf, refuseWhileUsed } from '../platform/in-use';
import { detail, mention } from '../platform/mentions';
import { loadEvent } from '../platform/pipeline/load-event';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { speakerTag } from './programme-tags';
import { sessionIdsBySpeaker } from './speaker-sessions';
import { updateSession } from './update-session';

export const deleteSpeaker = defineOperation({
  name: 'deleteSpeaker',
  title: 'Remove a speaker',
  description:
    'Removes a speaker who speaks at no session; otherwise it is refused (inUse, naming the sessions): take them off with update_session first. Needs program:write.',
  scope: 'program:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'program',
  problems: ['notFound', 'inUse'],
  ifMatch: speakerTag,
  activity: { resourceType: 'speaker', resourceId: (_input, removed) => removed.speakerId },
  input: v.object({ eventId: uuid('The event id.'), speakerId: uuid('The speaker id.') }),
  output: v.object({ speakerId: uuid('The speaker removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    // Held by invoke for removal (ifMatch.hold): a session naming them meanwhile is waited for and
    // counted, or finds them gone.
    const speaker = await loadEventRow(ctx, 'speakers', event.id, input.speakerId, 'speaker');
    const sessions = (await sessionIdsBySpeaker(ctx, event.id, [speaker.id])).get(speaker.id) ?? [];
    // Taking a speaker off a session is a programme change the organiser makes on purpose, not a side effect.
    refuseWhileUsed(
      'The speaker',
      [dependentsOf('session', sessions)],
      detail`take them off those sessions with ${mention(updateSession)} first.`,
    );
    // A share-kit sharer keeps its own name and address; its link to the speaker row goes (set null).
    await ctx.db.deleteFrom('speakers').where('id', '=', speaker.id).execute();
    return { speakerId: speaker.id, deleted: true as const };
  },
});
