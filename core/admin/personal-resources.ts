// Every resource that holds personal data, by its declaration. Erasure goes through this list, and
// a test fails when the schema has a personal column none of them covers: a new area adds its
// declaration here. The erasure's counts and summary follow this order (erasure-counts.ts).
import { attendeePersonal } from '../attendees/attendee-view';
import { reviewPersonal } from '../cfp/review-view';
import { submissionSpeakerPersonal } from '../cfp/submission-view';
import { memberPersonal } from '../communities/member-view';
import { crewMemberPersonal } from '../crew/crew-view';
import { invoicePersonal } from '../finance/invoice-view';
import { mailPersonal } from '../mail/mail-personal';
import { orderPersonal } from '../orders/order-view';
import { holderPersonal } from '../passes/holder-view';
import type { AttendeeLink, PersonalResource } from '../platform/pipeline/personal-data';
import { speakerPersonal } from '../programme/speaker-view';
import { sharerPersonal } from '../sharekit/leaderboard-view';
import { leadPersonal } from '../sponsors/lead-view';
import { sessionRatingLink, surveyAnswerLink } from '../surveys/feedback-links';
import {
  certificatePersonal,
  claimPersonal,
  stayPersonal,
  travelPersonal,
} from '../webhooks/message-resources';

export const personalResources: readonly PersonalResource<string, string>[] = [
  attendeePersonal,
  orderPersonal,
  holderPersonal,
  speakerPersonal,
  memberPersonal,
  // After the attendees: a lead is found by the visitor's tickets too.
  leadPersonal,
  submissionSpeakerPersonal,
  reviewPersonal,
  // After the attendees: a sharer is found by their own ticket too.
  sharerPersonal,
  // After the attendees: a crew member is found by their crew ticket too.
  crewMemberPersonal,
  invoicePersonal,
  // After the attendees: a stay or a certificate is found by the ticket too.
  stayPersonal,
  travelPersonal,
  claimPersonal,
  certificatePersonal,
  // After the attendees: an e-mail is found by the ticket it is about too.
  mailPersonal,
];

/** Rows that only link to a person's ticket: erasure cuts the link and keeps them, anonymous. */
export const attendeeLinks: readonly AttendeeLink[] = [surveyAnswerLink, sessionRatingLink];
