// The one MCP tool table. Each line points at a core operation.
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
import { type Tool, tool } from './tool-table';

export const tools: Tool[] = [
  tool(workspace.getMe),
  tool(workspace.getWorkspace),

  tool(events.listEvents),
  tool(events.getEvent),
  tool(events.createEvent),
  tool(events.updateEvent),
  tool(events.setEventStatus),
  tool(events.deleteEvent),
  tool(events.getEventStats),
  tool(events.listQuestions),
  tool(events.getAnswersSchema),
  tool(events.getSignUp),
  tool(events.updateSignUp),

  tool(tickets.listTicketTypes),
  tool(tickets.getTicketType),
  tool(tickets.createTicketType),
  tool(tickets.updateTicketType),
  tool(tickets.deleteTicketType),
  tool(tickets.listAddOns),
  tool(tickets.createAddOn),
  tool(tickets.deleteAddOn),
  tool(tickets.listDiscountCodes),
  tool(tickets.createDiscountCode),
  tool(tickets.updateDiscountCode),
  tool(tickets.deleteDiscountCode),

  tool(orders.listOrders),
  tool(orders.getOrder),
  tool(orders.createOrder),
  tool(orders.getSalesPace),
  tool(orders.confirmPayment),
  tool(orders.refundOrder),
  tool(orders.approveOrder),
  tool(orders.declineOrder),

  tool(attendees.listAttendees),
  tool(attendees.searchAttendees),
  tool(attendees.getAttendee),
  tool(attendees.registerAttendees),
  tool(attendees.updateAttendee),
  tool(attendees.cancelAttendee),
  tool(mail.listEmails),
  tool(mail.getEmail),
  tool(attendees.resendTicket),
  tool(waitingList.listWaitingList),
  tool(waitingList.addToWaitingList),
  tool(waitingList.offerWaitingPlace),
  tool(waitingList.removeFromWaitingList),
  tool(admin.erasePersonData),

  // Doors and check-in
  tool(checkin.listDoors),
  tool(checkin.createDoor),
  tool(checkin.updateDoor),
  tool(checkin.deleteDoor),
  tool(checkin.checkInAttendee),
  tool(checkin.checkInByCode),
  tool(checkin.uploadOfflineScans),
  tool(checkin.listCheckIns),
  tool(checkin.getCheckInSummary),
  tool(checkin.listScanList),

  // Programme
  tool(programme.listSessions),
  tool(programme.getSession),
  tool(programme.createSession),
  tool(programme.updateSession),
  tool(programme.deleteSession),
  tool(programme.listRooms),
  tool(programme.createRoom),
  tool(programme.updateRoom),
  tool(programme.deleteRoom),
  tool(programme.listTracks),
  tool(programme.createTrack),
  tool(programme.updateTrack),
  tool(programme.deleteTrack),
  tool(programme.listSpeakers),
  tool(programme.createSpeaker),
  tool(programme.updateSpeaker),
  tool(programme.listContent),
  tool(programme.publishContent),
  tool(programme.updateContent),
  tool(programme.unpublishContent),
  tool(programme.deleteSpeaker),

  // Sponsors and leads
  tool(sponsors.listSponsors),
  tool(sponsors.listSponsorLevels),
  tool(sponsors.listLeads),
  tool(sponsors.createSponsorLevel),
  tool(sponsors.updateSponsorLevel),
  tool(sponsors.deleteSponsorLevel),
  tool(sponsors.createSponsor),
  tool(sponsors.updateSponsor),
  tool(sponsors.deleteSponsor),
  tool(sponsors.exportSponsorLeads),
  tool(sponsors.captureLead),
  tool(sponsors.updateLead),
  tool(sponsors.deleteLead),

  // Call for speakers and share kit
  tool(cfp.listSubmissions),
  tool(cfp.getSubmission),
  tool(cfp.getCallForSpeakers),
  tool(cfp.updateCallForSpeakers),
  tool(cfp.createSubmission),
  tool(cfp.updateSubmission),
  tool(cfp.withdrawSubmission),
  tool(cfp.changeSubmissionStatus),
  tool(cfp.reviewSubmission),
  tool(cfp.listSubmissionReviews),
  tool(sharekit.listSharekitLeaderboard),
  tool(sharekit.listShareLinks),
  tool(sharekit.createShareLink),
  tool(sharekit.deleteShareLink),

  // Passes
  tool(passes.listPasses),
  tool(passes.getPass),
  tool(passes.listPassHolders),

  // Crew and shifts
  tool(crew.listCrew),
  tool(crew.inviteCrewMember),
  tool(crew.updateCrewMember),
  tool(crew.removeCrewMember),
  tool(crew.listShifts),
  tool(crew.createShift),
  tool(crew.updateShift),
  tool(crew.deleteShift),
  tool(crew.signUpForShift),
  tool(crew.dropShift),

  // Speakers' and crew's stays and journeys
  tool(logistics.listStays),
  tool(logistics.getStay),
  tool(logistics.requestStay),
  tool(logistics.assignStay),
  tool(logistics.updateStay),
  tool(logistics.cancelStay),
  tool(logistics.deleteStay),
  tool(logistics.listTravel),
  tool(logistics.getTravel),
  tool(logistics.bookTravel),
  tool(logistics.updateTravel),
  tool(logistics.cancelTravel),
  tool(logistics.deleteTravel),

  tool(surveys.listSurveys),
  tool(surveys.getSurveyResults),
  tool(surveys.getSessionRatings),
  tool(surveys.createSurvey),
  tool(surveys.updateSurvey),
  tool(surveys.deleteSurvey),
  tool(surveys.submitSurveyAnswer),
  tool(surveys.rateSession),

  tool(certificates.listCertificates),
  tool(certificates.issueCertificate),
  tool(certificates.issueAttendanceCertificates),
  tool(certificates.revokeCertificate),

  // Finance
  tool(finance.listInvoices),
  tool(finance.getInvoice),
  tool(documents.getInvoicePdf),
  tool(mail.sendInvoice),
  tool(finance.getBudget),
  tool(finance.listClaims),
  tool(finance.getClaim),
  tool(finance.submitClaim),
  tool(finance.approveClaim),
  tool(finance.declineClaim),
  tool(finance.payClaim),
  tool(finance.getInvoicing),
  tool(finance.updateInvoicing),
  tool(finance.listBudgetLines),
  tool(finance.createBudgetLine),
  tool(finance.updateBudgetLine),
  tool(finance.deleteBudgetLine),
  tool(payments.getStripeConnection),
  tool(payments.connectStripe),
  tool(payments.disconnectStripe),

  tool(communities.listCommunities),
  tool(communities.getCommunity),
  tool(communities.listCommunityMembers),
  tool(communities.createCommunity),
  tool(communities.updateCommunity),
  tool(communities.deleteCommunity),
  tool(communities.setCommunityStatus),
  tool(communities.joinCommunity),
  tool(communities.approveCommunityMember),
  tool(communities.declineCommunityMember),
  tool(communities.leaveCommunity),
  tool(communities.setEventCommunity),

  // Exports
  tool(exportFiles.exportEventData),

  // Webhooks and automation subscriptions
  tool(webhooks.listEventTypes),
  tool(webhooks.listWebhooks),
  tool(webhooks.createWebhook),
  tool(webhooks.getWebhook),
  tool(webhooks.updateWebhook),
  tool(webhooks.deleteWebhook),
  tool(webhooks.rotateWebhookSecret),
  tool(webhooks.sendTestMessage),
  tool(webhooks.listWebhookDeliveries),
  tool(webhooks.listHooks),
  tool(webhooks.createHook),
  tool(webhooks.createHookForType),
  tool(webhooks.getHook),
  tool(webhooks.deleteHook),
];
