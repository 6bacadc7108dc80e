// The one REST route table. Each line points at a core operation; transport details only.
import * as attendees from '../core/attendees';
import * as checkin from '../core/checkin';
import * as events from '../core/events';
import * as orders from '../core/orders';
import * as passes from '../core/passes';
import * as programme from '../core/programme';
import * as tickets from '../core/tickets';
import * as workspace from '../core/workspace';
import { get, patch, post, put, type Route } from './route-table';

const listErrors = ['invalidCursor', 'invalidUpdatedSince', 'invalidRequest', 'eventNotFound'];
const legacyListErrors = [...listErrors, 'invalidSort'];

export const routes: Route[] = [
  get('/me', workspace.getMe),
  get('/workspace', workspace.getWorkspace),

  get('/events', events.listEvents, { errors: ['invalidCursor', 'invalidUpdatedSince', 'invalidRequest'] }),
  post('/events', events.createEvent, {
    status: 201,
    errors: ['invalidBody', 'invalidRequest', 'slugTaken', 'demoWorkspace'],
  }),
  get('/events/:eventId', events.getEvent, { etag: true, errors: ['eventNotFound'] }),
  patch('/events/:eventId', events.updateEvent, {
    ifMatch: true,
    errors: [
      'invalidBody',
      'invalidRequest',
      'eventNotFound',
      'slugTaken',
      'preconditionFailed',
      'demoWorkspace',
    ],
  }),
  put('/events/:eventId/status', events.setEventStatus, {
    errors: ['invalidBody', 'invalidRequest', 'eventNotFound', 'historyNeedsLicence', 'demoWorkspace'],
  }),
  get('/events/:eventId/stats', events.getEventStats, { errors: ['eventNotFound'] }),
  get('/events/:eventId/questions', events.listQuestions, { errors: ['eventNotFound'] }),
  get('/events/:eventId/questions/schema', events.getAnswersSchema, { errors: ['eventNotFound'] }),

  get('/events/:eventId/ticket-types', tickets.listTicketTypes, { errors: listErrors }),
  get('/events/:eventId/ticket-types/:ticketTypeId', tickets.getTicketType, {
    etag: true,
    errors: ['eventNotFound', 'notFound'],
  }),
  patch('/events/:eventId/ticket-types/:ticketTypeId', tickets.updateTicketType, {
    ifMatch: true,
    errors: [
      'invalidBody',
      'invalidRequest',
      'demoWorkspace',
      'eventNotFound',
      'notFound',
      'capacityBelowTaken',
      'preconditionFailed',
    ],
  }),
  get('/events/:eventId/add-ons', tickets.listAddOns, { errors: listErrors }),
  get('/events/:eventId/discount-codes', tickets.listDiscountCodes, { errors: listErrors }),
  post('/events/:eventId/discount-codes', tickets.createDiscountCode, {
    status: 201,
    errors: ['invalidBody', 'invalidRequest', 'demoWorkspace', 'eventNotFound', 'codeTaken'],
  }),

  get('/events/:eventId/orders', orders.listOrders, { errors: legacyListErrors }),
  get('/events/:eventId/orders/:orderId', orders.getOrder, {
    etag: true,
    errors: ['eventNotFound', 'notFound'],
  }),
  get('/events/:eventId/sales', orders.getSalesPace, { errors: ['invalidRequest', 'eventNotFound'] }),

  get('/events/:eventId/attendees', attendees.listAttendees, {
    errors: [...legacyListErrors, 'peopleScope'],
  }),
  post('/events/:eventId/attendees', attendees.registerAttendees, {
    status: 201,
    errors: [
      'invalidBody',
      'invalidRequest',
      'invalid',
      'soldOut',
      'unknownTicket',
      'empty',
      'tooMany',
      'registrationRefused',
      'demoWorkspace',
      'eventNotFound',
    ],
  }),
  get('/events/:eventId/attendees/search', attendees.searchAttendees, {
    errors: ['invalidRequest', 'peopleScope', 'eventNotFound'],
  }),
  get('/events/:eventId/attendees/:attendeeId', attendees.getAttendee, {
    errors: ['eventNotFound', 'attendeeNotFound'],
  }),
  patch('/events/:eventId/attendees/:attendeeId', attendees.updateAttendee, {
    errors: ['invalidBody', 'invalidRequest', 'demoWorkspace', 'eventNotFound', 'attendeeNotFound'],
  }),
  post('/events/:eventId/attendees/:attendeeId/cancel', attendees.cancelAttendee, {
    errors: ['demoWorkspace', 'eventNotFound', 'attendeeNotFound', 'alreadyCancelled'],
  }),

  // Doors and check-in
  get('/events/:eventId/doors', checkin.listDoors, { errors: ['eventNotFound', 'moduleOff', 'onlineEvent'] }),
  get('/events/:eventId/check-ins', checkin.listCheckIns, {
    errors: ['invalidCursor', 'invalidSort', 'invalidRequest', 'eventNotFound', 'moduleOff', 'onlineEvent'],
  }),
  get('/events/:eventId/check-ins/summary', checkin.getCheckInSummary, {
    errors: ['eventNotFound', 'moduleOff', 'onlineEvent'],
  }),
  post('/events/:eventId/check-ins/offline', checkin.uploadOfflineScans, {
    errors: ['invalidBody', 'invalidRequest', 'demoWorkspace', 'eventNotFound', 'moduleOff', 'onlineEvent'],
  }),
  post('/events/:eventId/attendees/:attendeeId/check-in', checkin.checkInAttendee, {
    errors: [
      'invalidBody',
      'invalidRequest',
      'demoWorkspace',
      'eventNotFound',
      'attendeeNotFound',
      'noDoor',
      'moduleOff',
      'onlineEvent',
    ],
  }),

  // Programme
  get('/events/:eventId/sessions', programme.listSessions, { errors: [...listErrors, 'moduleOff'] }),
  post('/events/:eventId/sessions', programme.createSession, {
    status: 201,
    errors: [
      'invalidBody',
      'invalidRequest',
      'invalidIdempotencyKey',
      'demoWorkspace',
      'eventNotFound',
      'moduleOff',
      'clash',
      'idempotencyKeyInUse',
      'idempotencyKeyReused',
    ],
  }),
  get('/events/:eventId/sessions/:sessionId', programme.getSession, {
    etag: true,
    errors: ['invalidRequest', 'eventNotFound', 'notFound', 'moduleOff'],
  }),
  patch('/events/:eventId/sessions/:sessionId', programme.updateSession, {
    ifMatch: true,
    errors: [
      'invalidBody',
      'invalidRequest',
      'demoWorkspace',
      'eventNotFound',
      'notFound',
      'moduleOff',
      'clash',
      'preconditionFailed',
    ],
  }),
  get('/events/:eventId/rooms', programme.listRooms, { errors: [...listErrors, 'moduleOff'] }),
  get('/events/:eventId/tracks', programme.listTracks, { errors: [...listErrors, 'moduleOff'] }),
  get('/events/:eventId/speakers', programme.listSpeakers, { errors: [...listErrors, 'moduleOff'] }),

  // Passes
  get('/passes', passes.listPasses, {
    errors: ['invalidCursor', 'invalidUpdatedSince', 'invalidRequest', 'eventNotFound'],
  }),
  get('/passes/:passId', passes.getPass, { etag: true, errors: ['invalidRequest', 'notFound'] }),
  get('/passes/:passId/holders', passes.listPassHolders, {
    errors: ['invalidCursor', 'invalidUpdatedSince', 'invalidRequest', 'notFound'],
  }),
];
