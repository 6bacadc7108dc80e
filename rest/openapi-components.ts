// The named schemas of the OpenAPI document: every resource (and the few request items clients
// build) under one name, so generated clients get an Event, an Attendee, an Order type, and the
// document refers to each by $ref wherever it appears. The names are the contract's resource names.
// Beside them, every answer that wraps them (rest/openapi-answers.ts) and every webhook message's
// body (rest/openapi-webhooks.ts).
import type * as v from 'valibot';
import { attendeeSchema } from '../core/attendees/attendee-view';
import { newAttendeeSchema } from '../core/attendees/register-attendees';
import { certificateApiSchema } from '../core/certificates/certificate-view';
import { issueAttendanceCertificates } from '../core/certificates/issue-attendance-certificates';
import { callSchema } from '../core/cfp/call-view';
import { reviewSchema } from '../core/cfp/review-view';
import {
  statusChangeSchema,
  submissionDetailSchema,
  submissionSchema,
  submissionSpeakerSchema,
} from '../core/cfp/submission-view';
import { checkInResultSchema } from '../core/checkin/check-in-attendee';
import { checkInSchema } from '../core/checkin/check-in-view';
import { doorSchema } from '../core/checkin/door-view';
import { checkInSummarySchema } from '../core/checkin/get-check-in-summary';
import { scanListEntrySchema } from '../core/checkin/list-scan-list';
import { offlineScanSchema, scanAnswerSchema } from '../core/checkin/upload-offline-scans';
import { communityListItemSchema, communitySchema } from '../core/communities/community-view';
import { communityRefSchema, memberSchema } from '../core/communities/member-view';
import { eventCommunitySchema } from '../core/communities/set-event-community';
import { crewMemberSchema, shiftSchema } from '../core/crew/crew-view';
import { eventRefSchema, eventSchema, modulesSchema, venueSchema } from '../core/events/event-view';
import { eventStatsSchema } from '../core/events/get-event-stats';
import { questionSchema } from '../core/events/questions';
import { signUpSchema } from '../core/events/sign-up-settings';
import { budgetLineSchema } from '../core/finance/budget-line-view';
import { budgetSummarySchema } from '../core/finance/get-budget';
import { invoiceItemSchema, invoiceLineSchema, invoiceSchema } from '../core/finance/invoice-view';
import { invoicingSchema } from '../core/invoicing/invoicing-view';
import { emailSchema } from '../core/mail/email-view';
import { salesPaceSchema } from '../core/orders/get-sales-pace';
import { orderSchema } from '../core/orders/order-view';
import { holderSchema } from '../core/passes/holder-view';
import { passEventSchema, passSchema } from '../core/passes/pass-view';
import type { NamedSchemas } from '../core/platform/docs/json-schema';
import { personalDataSchema, rateLimitSchema } from '../core/platform/schemas';
import { contentApiSchema } from '../core/programme/content-view';
import { roomSchema } from '../core/programme/room-view';
import { sessionSchema } from '../core/programme/session-view';
import { speakerSchema } from '../core/programme/speaker-view';
import { trackSchema } from '../core/programme/track-view';
import { leaderboardEntrySchema } from '../core/sharekit/leaderboard-view';
import { shareLinkSchema } from '../core/sharekit/share-link-view';
import { leadItemSchema, leadSchema } from '../core/sponsors/lead-view';
import { sponsorLevelSchema } from '../core/sponsors/sponsor-level-view';
import { sponsorSchema } from '../core/sponsors/sponsor-view';
import { getSessionRatings } from '../core/surveys/get-session-ratings';
import { getSurveyResults } from '../core/surveys/get-survey-results';
import { surveySchema } from '../core/surveys/survey-view';
import { addOnSchema } from '../core/tickets/add-on-view';
import { discountCodeSchema } from '../core/tickets/discount-code-view';
import { ticketTypeSchema } from '../core/tickets/ticket-type-view';
import { deliverySchema } from '../core/webhooks/delivery-view';
import { webhookSchema } from '../core/webhooks/endpoints/webhook-view';
import { eventTypeSchema } from '../core/webhooks/list-event-types';
import {
  certificateSchema,
  claimSchema,
  contentSchema,
  feedbackSchema,
  staySchema,
  travelSchema,
} from '../core/webhooks/message-resources';
import { hookSchema } from '../core/webhooks/subscriptions/hook-view';
import { meSchema } from '../core/workspace/get-me';
import { workspaceSchema } from '../core/workspace/get-workspace';
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
