// What the entity tag of a room, a track or a speaker names: held as their change or removal holds
// it (tagged-row.ts), and the view their changes answer. One declaration for the change and the
// removal of each, so both check the same tag.
import type { Ctx } from '../platform/context';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { heldRow } from '../platform/pipeline/tagged-row';
import { roomView } from './room-view';
import { sessionIdsBySpeaker } from './speaker-sessions';
import { speakerView } from './speaker-view';
import { trackView } from './track-view';

export const roomTag = {
  hold: heldRow('rooms', (input: { roomId: string }) => input.roomId),
  current: async (ctx: Ctx, input: { eventId: string; roomId: string }) =>
    roomView(await loadEventRow(ctx, 'rooms', input.eventId, input.roomId, 'room')),
};

export const trackTag = {
  hold: heldRow('tracks', (input: { trackId: string }) => input.trackId),
  current: async (ctx: Ctx, input: { eventId: string; trackId: string }) =>
    trackView(await loadEventRow(ctx, 'tracks', input.eventId, input.trackId, 'track')),
};

export const speakerTag = {
  hold: heldRow('speakers', (input: { speakerId: string }) => input.speakerId),
  async current(ctx: Ctx, input: { eventId: string; speakerId: string }) {
    const speaker = await loadEventRow(ctx, 'speakers', input.eventId, input.speakerId, 'speaker');
    const sessions = await sessionIdsBySpeaker(ctx, input.eventId, [speaker.id]);
    return speakerView(ctx.actor, speaker, sessions.get(speaker.id) ?? []);
  },
};
