// Every resource that holds personal data, by its declaration. Erasure goes through this list, and
// a test fails when the schema has a personal column none of them covers: a new area adds its
// declaration here. The erasure's counts and summary follow this order (erasure-counts.ts).
import { attendeePersonal } from '../attendees';
import { certificatePersonal } from '../certificates';
import { reviewPersonal, submissionSpeakerPersonal } from '../cfp';
import { memberPersonal } from '../communities';
import { crewMemberPersonal } from '../crew';
import { claimPersonal, invoicePersonal } from '../finance';
import { stayPersonal, travelPersonal } from '../logistics';
import { mailPersonal } from '../mail';
import { orderPersonal } from '../orders';
import { holderPersonal } from '../passes';
import type { AttendeeLink, PersonalResource } from '../platform/pipeline/personal-data';
import { speakerPersonal } from '../programme';
import { sharerPersonal } from '../sharekit';
import { leadPersonal } from '../sponsors';
import { sessionRatingLink, surveyAnswerLink } from '../surveys';
import { waitingPersonal } from '../waiting-list';

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
  // Added last (issue 52): the counts keep the order they were always printed in.
  waitingPersonal,
];

/** Rows that only link to a person's ticket: erasure cuts the link and keeps them, anonymous. */
export const attendeeLinks: readonly AttendeeLink[] = [surveyAnswerLink, sessionRatingLink];
