// The one REST route table, area by area. Each line points at a core operation; the success status
// is the only transport detail a route adds.
import * as admin from '../core/admin';
import * as attendees from '../core/attendees';
import * as certificates from '../core/certificates';
import * as cfp from '../core/cfp';
import * as checkin from '../core/checkin';
import * as communities from '../core/communities';
import * as crew from '../core/crew';
import * as documents from '../core/documents';
import * as events from '../core/events';
import * as exportFiles from '../core/exports';
import * as finance from '../core/finance';
import * as logistics from '../core/logistics';
import * as mail from '../core/mail';
import * as orders from '../core/orders';
import * as passes from '../core/passes';
import * as payments from '../core/payments';
import * as programme from '../core/programme';
import * as sharekit from '../core/sharekit';
import * as sponsors from '../core/sponsors';
import * as surveys from '../core/surveys';
import * as tickets from '../core/tickets';
import * as waitingList from '../core/waiting-list';
import * as webhooks from '../core/webhooks';
import * as workspace from '../core/workspace';
import { type Area, apiBase, area, del, get, patch, post, put, type Route } from './route-table';

/** The areas, in the order the reference shows them. */
export const areas = {
  workspace: {
    name: 'Workspace',
    description: 'Which workspace a key reaches, what the key may do, and its call limit.',
  },
  events: {
    name: 'Events',
    description:
      'Events in person and online: draft, publish, change, statistics, registration questions, and the modules an organiser switches on and off.',
  },
  tickets: {
    name: 'Tickets',
    description: 'Ticket types (with capacity and sales window), add-ons and discount codes.',
  },
  orders: {
    name: 'Orders',
    description: 'Orders with their money and status, and the sales pace of an event.',
  },
  attendees: {
    name: 'Attendees',
    description:
      'One attendee per ticket: the list and search, registration of people with free tickets, badge-desk corrections, cancellation. Names, email and answers need people:read.',
  },
  waitingList: {
    name: 'Waiting lists',
    description:
      'Tessera extension: people waiting for a sold-out ticket type in join order; a place that comes free is offered to the next in line and held for them for the hours the sign-up settings say. Names and e-mail need people:read.',
  },
  people: {
    name: 'People',
    description:
      'A person across every event of the workspace: erasing their data at their request, as `tessera person erase` does.',
  },
  checkin: {
    name: 'Check-in',
    description:
      "Doors, the steward's scanner rules, offline uploads, the scans and the live summary. Online events have no doors.",
  },
  programme: { name: 'Programme', description: 'Sessions, rooms, tracks and speakers.' },
  sponsors: {
    name: 'Sponsors',
    description:
      'Sponsors and their levels, in the order the event shows them, and the leads their staff capture (only those the visitor agreed to share; they need people:read).',
  },
  cfp: {
    name: 'Call for speakers',
    description:
      "Submissions to an event's call for speakers: where each stands, its status history, the reviewers' average score and its speakers (their details need people:read).",
  },
  sharekit: {
    name: 'Share kit',
    description:
      'The leaderboard of people sharing an event with their personal links: clicks and registrations brought, counted from the rows.',
  },
  passes: { name: 'Passes', description: 'Season passes and bundles, and who holds them.' },
  crew: {
    name: 'Crew',
    description:
      'Volunteers and staff with their roles, and the shifts they work: in time order, with places needed, assigned and open counted from who is on each.',
  },
  logistics: {
    name: 'Speakers and crew logistics',
    description:
      'Hotel stays and journeys arranged for speakers and crew, from request to the room and the booking (their names need people:read).',
  },
  surveys: {
    name: 'Surveys',
    description: 'Surveys and what their answers add up to, and session ratings; never who answered.',
  },
  certificates: {
    name: 'Certificates',
    description:
      'Certificates of attendance, speaking and crewing issued to ticket holders, each with a public address that verifies it.',
  },
  finance: {
    name: 'Finance',
    description:
      "Invoices and credit notes in the event's series order (the buyer needs people:read), the budget summary net of VAT with its break-even point, and the workspace's connection to Stripe for card payments (extension). Stripe sends the workspace's events to POST /api/v1/payments/stripe/webhook/{workspaceId} (no key: the Stripe-Signature header is verified with Stripe's SDK; 200 once recorded, 400 stripeSignatureInvalid otherwise; docs/payments.md).",
  },
  communities: {
    name: 'Communities',
    description: 'Communities (series of meetups at /c/{slug}) and their members.',
  },
  exports: {
    name: 'Exports',
    description:
      "An event's attendees, orders, check-ins or leads as one CSV or JSON file: each list whole, under its own scope and the personal-data rule.",
  },
  webhooks: {
    name: 'Webhooks',
    description:
      'Endpoints that receive signed messages (Standard Webhooks) of the event types they choose, the catalogue of the 22 types, and what was delivered.',
  },
  hooks: {
    name: 'Automation subscriptions',
    description:
      'Unsigned callbacks for automation platforms (Zapier, Make, n8n): one event type each, the data at the top level of the body.',
  },
} satisfies Record<string, Area>;

const hookAddress = (hook: { id: string }) => `${apiBase}/hooks/${hook.id}`;

export const routes: Route[] = [
  ...area(areas.workspace, [get('/me', workspace.getMe), get('/workspace', workspace.getWorkspace)]),

  ...area(areas.events, [
    get('/events', events.listEvents),
    post('/events', events.createEvent, { status: 201 }),
    get('/events/:eventId', events.getEvent),
    patch('/events/:eventId', events.updateEvent),
    put('/events/:eventId/status', events.setEventStatus),
    del('/events/:eventId', events.deleteEvent, { status: 204 }),
    get('/events/:eventId/stats', events.getEventStats),
    get('/events/:eventId/questions', events.listQuestions),
    get('/events/:eventId/questions/schema', events.getAnswersSchema),
    get('/events/:eventId/sign-up', events.getSignUp),
    patch('/events/:eventId/sign-up', events.updateSignUp),
  ]),

  ...area(areas.tickets, [
    get('/events/:eventId/ticket-types', tickets.listTicketTypes),
    post('/events/:eventId/ticket-types', tickets.createTicketType, { status: 201 }),
    get('/events/:eventId/ticket-types/:ticketTypeId', tickets.getTicketType),
    patch('/events/:eventId/ticket-types/:ticketTypeId', tickets.updateTicketType),
    del('/events/:eventId/ticket-types/:ticketTypeId', tickets.deleteTicketType, { status: 204 }),
    get('/events/:eventId/add-ons', tickets.listAddOns),
    post('/events/:eventId/add-ons', tickets.createAddOn, { status: 201 }),
    del('/events/:eventId/add-ons/:addOnId', tickets.deleteAddOn, { status: 204 }),
    get('/events/:eventId/discount-codes', tickets.listDiscountCodes),
    post('/events/:eventId/discount-codes', tickets.createDiscountCode, { status: 201 }),
    patch('/events/:eventId/discount-codes/:discountCodeId', tickets.updateDiscountCode),
    del('/events/:eventId/discount-codes/:discountCodeId', tickets.deleteDiscountCode, { status: 204 }),
  ]),

  ...area(areas.orders, [
    get('/events/:eventId/orders', orders.listOrders),
    get('/events/:eventId/orders/:orderId', orders.getOrder),
    post('/events/:eventId/orders', orders.createOrder, { status: 201 }),
    get('/events/:eventId/sales', orders.getSalesPace),
    post('/events/:eventId/orders/:orderId/mark-paid', orders.confirmPayment),
    post('/events/:eventId/orders/:orderId/refund', orders.refundOrder),
    post('/events/:eventId/orders/:orderId/approve', orders.approveOrder),
    post('/events/:eventId/orders/:orderId/decline', orders.declineOrder),
  ]),

  ...area(areas.attendees, [
    get('/events/:eventId/attendees', attendees.listAttendees),
    post('/events/:eventId/attendees', attendees.registerAttendees, { status: 201 }),
    get('/events/:eventId/attendees/search', attendees.searchAttendees),
    get('/events/:eventId/attendees/:attendeeId', attendees.getAttendee),
    patch('/events/:eventId/attendees/:attendeeId', attendees.updateAttendee),
    post('/events/:eventId/attendees/:attendeeId/cancel', attendees.cancelAttendee),
    get('/events/:eventId/emails', mail.listEmails),
    get('/events/:eventId/emails/:emailId', mail.getEmail),
    post('/events/:eventId/attendees/:attendeeId/resend-ticket', attendees.resendTicket, { status: 201 }),
  ]),

  ...area(areas.waitingList, [
    get('/events/:eventId/waiting-list', waitingList.listWaitingList),
    post('/events/:eventId/waiting-list', waitingList.addToWaitingList, { status: 201 }),
    post('/events/:eventId/waiting-list/:waitingListEntryId/offer', waitingList.offerWaitingPlace),
    del('/events/:eventId/waiting-list/:waitingListEntryId', waitingList.removeFromWaitingList, {
      status: 204,
    }),
  ]),

  ...area(areas.people, [post('/people/erasure', admin.erasePersonData)]),

  ...area(areas.checkin, [
    get('/events/:eventId/doors', checkin.listDoors),
    post('/events/:eventId/doors', checkin.createDoor, { status: 201 }),
    patch('/events/:eventId/doors/:doorId', checkin.updateDoor),
    del('/events/:eventId/doors/:doorId', checkin.deleteDoor, { status: 204 }),
    post('/events/:eventId/attendees/:attendeeId/check-in', checkin.checkInAttendee),
    post('/events/:eventId/check-ins/by-code', checkin.checkInByCode),
    post('/events/:eventId/check-ins/offline', checkin.uploadOfflineScans),
    get('/events/:eventId/check-ins', checkin.listCheckIns),
    get('/events/:eventId/check-ins/summary', checkin.getCheckInSummary),
    get('/events/:eventId/check-ins/scan-list', checkin.listScanList),
  ]),

  ...area(areas.programme, [
    get('/events/:eventId/sessions', programme.listSessions),
    post('/events/:eventId/sessions', programme.createSession, { status: 201 }),
    get('/events/:eventId/sessions/:sessionId', programme.getSession),
    patch('/events/:eventId/sessions/:sessionId', programme.updateSession),
    del('/events/:eventId/sessions/:sessionId', programme.deleteSession, { status: 204 }),
    get('/events/:eventId/rooms', programme.listRooms),
    post('/events/:eventId/rooms', programme.createRoom, { status: 201 }),
    patch('/events/:eventId/rooms/:roomId', programme.updateRoom),
    del('/events/:eventId/rooms/:roomId', programme.deleteRoom, { status: 204 }),
    get('/events/:eventId/tracks', programme.listTracks),
    post('/events/:eventId/tracks', programme.createTrack, { status: 201 }),
    patch('/events/:eventId/tracks/:trackId', programme.updateTrack),
    del('/events/:eventId/tracks/:trackId', programme.deleteTrack, { status: 204 }),
    get('/events/:eventId/speakers', programme.listSpeakers),
    post('/events/:eventId/speakers', programme.createSpeaker, { status: 201 }),
    patch('/events/:eventId/speakers/:speakerId', programme.updateSpeaker),
    get('/events/:eventId/content', programme.listContent),
    post('/events/:eventId/content', programme.publishContent, { status: 201 }),
    patch('/events/:eventId/content/:contentId', programme.updateContent),
    del('/events/:eventId/content/:contentId', programme.unpublishContent, { status: 204 }),
    del('/events/:eventId/speakers/:speakerId', programme.deleteSpeaker, { status: 204 }),
  ]),

  ...area(areas.sponsors, [
    get('/events/:eventId/sponsors', sponsors.listSponsors),
    get('/events/:eventId/sponsor-levels', sponsors.listSponsorLevels),
    get('/events/:eventId/leads', sponsors.listLeads),
    post('/events/:eventId/sponsor-levels', sponsors.createSponsorLevel, { status: 201 }),
    patch('/events/:eventId/sponsor-levels/:levelId', sponsors.updateSponsorLevel),
    del('/events/:eventId/sponsor-levels/:levelId', sponsors.deleteSponsorLevel, { status: 204 }),
    post('/events/:eventId/sponsors', sponsors.createSponsor, { status: 201 }),
    patch('/events/:eventId/sponsors/:sponsorId', sponsors.updateSponsor),
    del('/events/:eventId/sponsors/:sponsorId', sponsors.deleteSponsor, { status: 204 }),
    get('/events/:eventId/sponsors/:sponsorId/leads', sponsors.exportSponsorLeads),
    post('/events/:eventId/leads', sponsors.captureLead, { status: 201 }),
    patch('/events/:eventId/leads/:leadId', sponsors.updateLead),
    del('/events/:eventId/leads/:leadId', sponsors.deleteLead, { status: 204 }),
  ]),

  ...area(areas.cfp, [
    get('/events/:eventId/submissions', cfp.listSubmissions),
    get('/events/:eventId/submissions/:submissionId', cfp.getSubmission),
    get('/events/:eventId/call-for-speakers', cfp.getCallForSpeakers),
    patch('/events/:eventId/call-for-speakers', cfp.updateCallForSpeakers),
    post('/events/:eventId/submissions', cfp.createSubmission, { status: 201 }),
    patch('/events/:eventId/submissions/:submissionId', cfp.updateSubmission),
    post('/events/:eventId/submissions/:submissionId/withdraw', cfp.withdrawSubmission),
    put('/events/:eventId/submissions/:submissionId/status', cfp.changeSubmissionStatus),
    put('/events/:eventId/submissions/:submissionId/review', cfp.reviewSubmission),
    get('/events/:eventId/submissions/:submissionId/reviews', cfp.listSubmissionReviews),
  ]),
  ...area(areas.sharekit, [
    get('/events/:eventId/sharekit/leaderboard', sharekit.listSharekitLeaderboard),
    get('/events/:eventId/share-links', sharekit.listShareLinks),
    post('/events/:eventId/share-links', sharekit.createShareLink, { status: 201 }),
    del('/events/:eventId/share-links/:linkId', sharekit.deleteShareLink, { status: 204 }),
  ]),

  ...area(areas.passes, [
    get('/passes', passes.listPasses),
    get('/passes/:passId', passes.getPass),
    get('/passes/:passId/holders', passes.listPassHolders),
  ]),
  ...area(areas.crew, [
    get('/events/:eventId/crew', crew.listCrew),
    post('/events/:eventId/crew', crew.inviteCrewMember, { status: 201 }),
    patch('/events/:eventId/crew/:crewMemberId', crew.updateCrewMember),
    del('/events/:eventId/crew/:crewMemberId', crew.removeCrewMember, { status: 204 }),
    get('/events/:eventId/shifts', crew.listShifts),
    post('/events/:eventId/shifts', crew.createShift, { status: 201 }),
    patch('/events/:eventId/shifts/:shiftId', crew.updateShift),
    del('/events/:eventId/shifts/:shiftId', crew.deleteShift, { status: 204 }),
    post('/events/:eventId/shifts/:shiftId/crew', crew.signUpForShift),
    del('/events/:eventId/shifts/:shiftId/crew/:crewMemberId', crew.dropShift, { status: 204 }),
  ]),
  ...area(areas.logistics, [
    get('/events/:eventId/stays', logistics.listStays),
    post('/events/:eventId/stays', logistics.requestStay, { status: 201 }),
    get('/events/:eventId/stays/:stayId', logistics.getStay),
    patch('/events/:eventId/stays/:stayId', logistics.updateStay),
    del('/events/:eventId/stays/:stayId', logistics.deleteStay, { status: 204 }),
    post('/events/:eventId/stays/:stayId/assign', logistics.assignStay),
    post('/events/:eventId/stays/:stayId/cancel', logistics.cancelStay),
    get('/events/:eventId/travel', logistics.listTravel),
    post('/events/:eventId/travel', logistics.bookTravel, { status: 201 }),
    get('/events/:eventId/travel/:travelId', logistics.getTravel),
    patch('/events/:eventId/travel/:travelId', logistics.updateTravel),
    del('/events/:eventId/travel/:travelId', logistics.deleteTravel, { status: 204 }),
    post('/events/:eventId/travel/:travelId/cancel', logistics.cancelTravel),
  ]),
  ...area(areas.surveys, [
    get('/events/:eventId/surveys', surveys.listSurveys),
    get('/events/:eventId/surveys/:surveyId/results', surveys.getSurveyResults),
    get('/events/:eventId/session-ratings', surveys.getSessionRatings),
    post('/events/:eventId/surveys', surveys.createSurvey, { status: 201 }),
    patch('/events/:eventId/surveys/:surveyId', surveys.updateSurvey),
    del('/events/:eventId/surveys/:surveyId', surveys.deleteSurvey, { status: 204 }),
    post('/events/:eventId/surveys/:surveyId/answers', surveys.submitSurveyAnswer, { status: 201 }),
    post('/events/:eventId/sessions/:sessionId/ratings', surveys.rateSession, { status: 201 }),
  ]),
  ...area(areas.certificates, [
    get('/events/:eventId/certificates', certificates.listCertificates),
    post('/events/:eventId/certificates', certificates.issueCertificate, { status: 201 }),
    post('/events/:eventId/certificates/attendance', certificates.issueAttendanceCertificates),
    del('/events/:eventId/certificates/:certificateId', certificates.revokeCertificate, { status: 204 }),
  ]),
  ...area(areas.finance, [
    get('/events/:eventId/invoices', finance.listInvoices),
    get('/events/:eventId/invoices/:invoiceId', finance.getInvoice),
    get('/events/:eventId/invoices/:invoiceId/pdf', documents.getInvoicePdf),
    post('/events/:eventId/invoices/:invoiceId/send', mail.sendInvoice, { status: 201 }),
    get('/events/:eventId/budget', finance.getBudget),
    get('/events/:eventId/expense-claims', finance.listClaims),
    post('/events/:eventId/expense-claims', finance.submitClaim, { status: 201 }),
    get('/events/:eventId/expense-claims/:claimId', finance.getClaim),
    post('/events/:eventId/expense-claims/:claimId/approve', finance.approveClaim),
    post('/events/:eventId/expense-claims/:claimId/decline', finance.declineClaim),
    post('/events/:eventId/expense-claims/:claimId/pay', finance.payClaim),
    get('/events/:eventId/invoicing', finance.getInvoicing),
    patch('/events/:eventId/invoicing', finance.updateInvoicing),
    get('/events/:eventId/budget-lines', finance.listBudgetLines),
    post('/events/:eventId/budget-lines', finance.createBudgetLine, { status: 201 }),
    patch('/events/:eventId/budget-lines/:lineId', finance.updateBudgetLine),
    del('/events/:eventId/budget-lines/:lineId', finance.deleteBudgetLine, { status: 204 }),
    get('/payments/stripe', payments.getStripeConnection),
    put('/payments/stripe', payments.connectStripe),
    del('/payments/stripe', payments.disconnectStripe, { status: 204 }),
  ]),
  ...area(areas.communities, [
    get('/communities', communities.listCommunities),
    get('/communities/:communityId', communities.getCommunity),
    get('/communities/:communityId/members', communities.listCommunityMembers),
    post('/communities', communities.createCommunity, { status: 201 }),
    patch('/communities/:communityId', communities.updateCommunity),
    del('/communities/:communityId', communities.deleteCommunity, { status: 204 }),
    put('/communities/:communityId/status', communities.setCommunityStatus),
    post('/communities/:communityId/members', communities.joinCommunity, { status: 201 }),
    post('/communities/:communityId/members/:memberId/approve', communities.approveCommunityMember),
    post('/communities/:communityId/members/:memberId/decline', communities.declineCommunityMember),
    post('/communities/:communityId/members/:memberId/leave', communities.leaveCommunity),
    put('/events/:eventId/community', communities.setEventCommunity),
  ]),

  ...area(areas.exports, [get('/events/:eventId/exports/:dataset', exportFiles.exportEventData)]),

  ...area(areas.webhooks, [
    get('/webhooks/event-types', webhooks.listEventTypes),
    get('/webhooks', webhooks.listWebhooks),
    post('/webhooks', webhooks.createWebhook, { status: 201 }),
    get('/webhooks/:webhookId', webhooks.getWebhook),
    patch('/webhooks/:webhookId', webhooks.updateWebhook),
    del('/webhooks/:webhookId', webhooks.deleteWebhook, { status: 204 }),
    post('/webhooks/:webhookId/secret', webhooks.rotateWebhookSecret),
    post('/webhooks/:webhookId/test', webhooks.sendTestMessage, { status: 202 }),
    get('/webhooks/:webhookId/deliveries', webhooks.listWebhookDeliveries),
  ]),

  ...area(areas.hooks, [
    get('/hooks', webhooks.listHooks),
    post('/hooks', webhooks.createHook, { status: 201, location: hookAddress }),
    post('/hooks/:eventType', webhooks.createHookForType, { status: 201, location: hookAddress }),
    get('/hooks/:hookId', webhooks.getHook),
    del('/hooks/:hookId', webhooks.deleteHook, { status: 204 }),
  ]),
];
