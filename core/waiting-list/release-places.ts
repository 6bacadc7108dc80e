// The one path that gives places back (tickets cancelled or refunded, a checkout's hold run out, a
// waiting-list offer ended): the counts go down (core/sales/places.ts givePlacesBack), then each
// ticket type's freed places are offered to its waiting list, in the same transaction, before the
// public can take them. Types in id order, after the add-ons' counts, as the counts are given back.
import type { Ctx } from '../platform/context';
import { givePlacesBack } from '../sales';
import { offerWaitingPlaces } from './offer-places';

export async function releasePlacesOf(
  ctx: Ctx,
  freed: { ticketTypes: Map<string, number>; addOns: Map<string, number> },
): Promise<void> {
  await givePlacesBack(ctx, freed);
  for (const ticketTypeId of [...freed.ticketTypes.keys()].sort())
    await offerWaitingPlaces(ctx, ticketTypeId);
}
