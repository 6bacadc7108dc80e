// The named schemas of the OpenAPI document: every resource (and the few request items clients
// build) under one name, so generated clients get an Event, an Attendee, an Order type, and the
// document refers to each by $ref wherever it appears. The names are the contract's resource names.
// Beside them, every answer that wraps them (rest/openapi-answers.ts) and every webhook message's
// body (rest/openapi-webhooks.ts).
import type * as v from 'valibot';
import { attendeeSchema, newAttendeeSchema } from '../core/attendees';
import { certificateApiSchema, certificateSchema, issueAttendanceCertificates } from '../core/certificates';
import {
  callSchema,
  reviewSchema,
  statusChangeSchema,
  submissionDetailSchema,
  submissionSchema,
  submissionSpeakerSchema,
} from '../core/cfp';
import {
  checkInResultSchema,
  checkInSchema,
  checkInSummarySchema,
  doorSchema,
  offlineScanSchema,
  scanAnswerSchema,
  scanListEntrySchema,
} from '../core/checkin';
import {
  communityListItemSchema,
  communityRefSchema,
  communitySchema,
  eventCommunitySchema,
  memberSchema,
} from '../core/communities';
import { crewMemberSchema, shiftSchema } from '../core/crew';
import {
  eventRefSchema,
  eventSchema,
  eventStatsSchema,
  modulesSchema,
  questionSchema,
  signUpSchema,
  venueSchema,
} from '../core/events';
import {
  budgetLineSchema,
  budgetSummarySchema,
  claimSchema,
  invoiceItemSchema,
  invoiceLineSchema,
  invoiceSchema,
} from '../core/finance';
import { invoicingSchema } from '../core/invoicing';
import { staySchema, travelSchema } from '../core/logistics';
import { emailSchema } from '../core/mail';
import { orderSchema, paidOrderSchema, refundedOrderSchema, salesPaceSchema } from '../core/orders';
import { holderSchema, passEventSchema, passSchema } from '../core/passes';
import { stripeConnectionSchema } from '../core/payments';
import type { NamedSchemas } from '../core/platform/docs/json-schema';
import { personalDataSchema, rateLimitSchema } from '../core/platform/schemas';
import {
  contentApiSchema,
  contentSchema,
  roomSchema,
  sessionSchema,
  speakerSchema,
  trackSchema,
} from '../core/programme';
import { leaderboardEntrySchema, shareLinkSchema } from '../core/sharekit';
import { leadItemSchema, leadSchema, sponsorLevelSchema, sponsorSchema } from '../core/sponsors';
import { feedbackSchema, getSessionRatings, getSurveyResults, surveySchema } from '../core/surveys';
import { addOnSchema, discountCodeSchema, ticketTypeSchema } from '../core/tickets';
import { waitingEntrySchema } from '../core/waiting-list';
import { deliverySchema, eventTypeSchema, hookSchema, webhookSchema } from '../core/webhooks';
import { meSchema, workspaceSchema } from '../core/workspace';
import { answerSchemas } from './openapi-answers';
import { webhookBodySchemas } from './openapi-webhooks';

const resourceSchemas: Record<string, v.GenericSchema> = {
  Me: meSchema,
  Workspace: workspaceSchema,
  RateLimit: rateLimitSchema,
  PersonalData: personalDataSchema,
  Event: eventSchema,
  EventRef: eventRefSchema,
  Venue: venueSchema,
  EventModules: modulesSchema,
  EventStats: eventStatsSchema,
  Question: questionSchema,
  TicketType: ticketTypeSchema,
  AddOn: addOnSchema,
  DiscountCode: discountCodeSchema,
  Order: orderSchema,
  PaidOrder: paidOrderSchema,
  RefundedOrder: refundedOrderSchema,
  SalesPace: salesPaceSchema,
  Attendee: attendeeSchema,
  Door: doorSchema,
  CheckIn: checkInSchema,
  CheckInResult: checkInResultSchema,
  CheckInSummary: checkInSummarySchema,
  OfflineScanResult: scanAnswerSchema,
  ScanListEntry: scanListEntrySchema,
  Session: sessionSchema,
  Room: roomSchema,
  Track: trackSchema,
  Speaker: speakerSchema,
  Pass: passSchema,
  PassEvent: passEventSchema,
  PassHolder: holderSchema,
  CrewMember: crewMemberSchema,
  Shift: shiftSchema,
  Submission: submissionSchema,
  SubmissionDetail: submissionDetailSchema,
  SubmissionSpeaker: submissionSpeakerSchema,
  SubmissionStatusChange: statusChangeSchema,
  CallForSpeakers: callSchema,
  SubmissionReview: reviewSchema,
  LeaderboardEntry: leaderboardEntrySchema,
  ShareLink: shareLinkSchema,
  Sponsor: sponsorSchema,
  SponsorLevel: sponsorLevelSchema,
  Lead: leadSchema,
  LeadItem: leadItemSchema,
  Invoice: invoiceSchema,
  InvoiceListItem: invoiceItemSchema,
  InvoiceLine: invoiceLineSchema,
  InvoicingSettings: invoicingSchema,
  StripeConnection: stripeConnectionSchema,
  SignUpSettings: signUpSchema,
  BudgetSummary: budgetSummarySchema,
  Survey: surveySchema,
  SurveyResults: getSurveyResults.output,
  SessionRatings: getSessionRatings.output,
  CommunityListItem: communityListItemSchema,
  Community: communitySchema,
  CommunityRef: communityRefSchema,
  CommunityMember: memberSchema,
  EventCommunity: eventCommunitySchema,
  Webhook: webhookSchema,
  WebhookDelivery: deliverySchema,
  WebhookEventType: eventTypeSchema,
  Hook: hookSchema,
  Feedback: feedbackSchema,
  Certificate: certificateSchema,
  Content: contentSchema,
  Stay: staySchema,
  Travel: travelSchema,
  ExpenseClaim: claimSchema,
  CertificateRecord: certificateApiSchema,
  AttendanceCertificatesIssued: issueAttendanceCertificates.output,
  BudgetLine: budgetLineSchema,
  PublishedContent: contentApiSchema,
  Email: emailSchema,
  WaitingListEntry: waitingEntrySchema,
};

/** The items of request bodies clients build: closed, as the server refuses what they do not declare. */
export const requestItemSchemas: Record<string, v.GenericSchema> = {
  NewAttendee: newAttendeeSchema,
  OfflineScan: offlineScanSchema,
};

/** The resources, the answers that wrap them, the request items, and the bodies of webhook messages. */
export const componentSchemas: Record<string, v.GenericSchema> = {
  ...resourceSchemas,
  ...requestItemSchemas,
  ...answerSchemas(resourceSchemas),
  ...webhookBodySchemas(),
};

export const components: NamedSchemas = { schemas: componentSchemas, prefix: '#/components/schemas/' };
