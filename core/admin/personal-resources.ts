// Every resource that holds personal data, by its declaration. Erasure goes through this list, and
// a test fails when the schema has a personal column none of them covers: a new area adds its
// declaration here.
import { attendeePersonal } from '../attendees/attendee-view';
import { orderPersonal } from '../orders/order-view';
import { holderPersonal } from '../passes/holder-view';
import type { PersonalResource } from '../platform/personal-data';
import { speakerPersonal } from '../programme/speaker-view';

export const personalResources: readonly PersonalResource<string, string>[] = [
  attendeePersonal,
  orderPersonal,
  holderPersonal,
  speakerPersonal,
];
