// Waiting lists per ticket type (issue 52, item 4): joining a sold-out type's list, places that come
// free offered to the next in line and held for them for a set time, the offer taken up through its
// link, and the organiser's view and management of the lists. The only way into core/waiting-list.

export type { WaitingListEntryRow as WaitingEntryRow } from '../../db/schema';
export { addToWaitingList } from './add-to-waiting-list';
export { waitingEntrySchema } from './entry-view';
export { expireWaitingOffers } from './expire-offers';
export { listWaitingList } from './list-waiting-list';
export { defaultOfferHours, offerWaitingPlaces } from './offer-places';
export { offerWaitingPlace } from './offer-waiting-place';
export {
  findWaitingOffer,
  joinFromPublicPage,
  offerHolds,
  type PublicJoin,
  type PublicJoinAnswer,
} from './public-join';
export { releasePlacesOf } from './release-places';
export { removeFromWaitingList } from './remove-from-waiting-list';
export { waitingPersonal } from './waiting-personal';
