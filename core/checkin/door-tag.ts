// What a door's entity tag names: held as its change or removal holds it (tagged-row.ts), and the view
// its change answers. One declaration for both, so both check the same tag.
import type { Ctx } from '../platform/context';
import { heldRow } from '../platform/pipeline/tagged-row';
import { doorView } from './door-view';
import { loadDoor } from './load-door';

export const doorTag = {
  hold: heldRow('doors', (input: { doorId: string }) => input.doorId),
  current: async (ctx: Ctx, input: { eventId: string; doorId: string }) =>
    doorView(await loadDoor(ctx, input.eventId, input.doorId)),
};
