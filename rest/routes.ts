// The one REST route table. Each line points at a core operation; transport details only.
import * as events from '../core/events';
import * as workspace from '../core/workspace';
import { get, patch, post, type Route } from './route-table';

export const routes: Route[] = [
  get('/me', workspace.getMe),
  get('/workspace', workspace.getWorkspace),

  get('/events', events.listEvents, { errors: ['invalidCursor', 'invalidUpdatedSince', 'invalidRequest'] }),
  post('/events', events.createEvent, {
    status: 201,
    idempotent: true,
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
];
