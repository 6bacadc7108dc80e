// The venue rule (core/events/venue-rule.ts), one for its three users: creating an event, changing
// one, and the import. An online event has no venue, an event in person needs one (the import takes
// one without: an earlier edition's may never have been recorded); the same words at each field.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFormat } from '../../core/import/format';
import { planFile } from '../../core/import/plan-file';
import { eventBody, expectProblem } from '../support/fixtures';
import { largeEventFile } from '../support/import-files';
import { startTestServer, type TestServer } from '../support/server';

const online = 'An online event has no venue.';
const inPerson = 'An in-person event needs a venue.';

let t: TestServer;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Venue rule'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

const create = (body: Record<string, unknown>) => t.api('/events', { key, method: 'POST', body });
const change = (eventId: string, body: unknown) =>
  t.api(`/events/${eventId}`, { key, method: 'PATCH', body });
const venueErrors = (answer: Awaited<ReturnType<typeof create>>) =>
  (expectProblem(answer, 400, 'invalidRequest').errors as { field: string }[]).filter(
    (e) => e.field === 'venue',
  );

describe('making an event', () => {
  it('refuses one in person without a venue, and one online with a venue', async () => {
    expect(venueErrors(await create(eventBody({ venue: undefined })))).toEqual([
      { field: 'venue', message: inPerson },
    ]);
    expect(venueErrors(await create(eventBody({ venue: null })))).toEqual([
      { field: 'venue', message: inPerson },
    ]);
    expect(venueErrors(await create(eventBody({ online: true })))).toEqual([
      { field: 'venue', message: online },
    ]);
  });
});

describe('changing an event', () => {
  it('refuses a venue for an online event and clearing the venue of one in person; a change that leaves it is taken', async () => {
    const remote = (await create(eventBody({ online: true, venue: undefined }))).body.eventId;
    const hall = (await create(eventBody())).body.eventId;
    expect(venueErrors(await change(remote, { venue: { name: 'Hall' } }))).toEqual([
      { field: 'venue', message: online },
    ]);
    expect(venueErrors(await change(hall, { venue: null }))).toEqual([{ field: 'venue', message: inPerson }]);
    expect((await change(remote, { name: 'Still online' })).status).toBe(200);
    expect((await change(hall, { venue: { name: 'Another hall' } })).status).toBe(200);
  });
});

describe('the import', () => {
  const venueIssues = (event: Record<string, unknown>) => {
    const file = largeEventFile(1);
    Object.assign(file.events[0]!, event);
    const plan = planFile(v.parse(importFormat, file), workspaceId, '2026-11-24T12:00:00Z');
    return plan.issues.filter((issue) => issue.path.endsWith('.venue'));
  };

  it('refuses a venue for an online event at its path, and takes an event in person without one', () => {
    expect(venueIssues({ online: true, venue: { name: 'Hall' } })).toEqual([
      { path: 'events[0].venue', message: online },
    ]);
    expect(venueIssues({ online: true })).toEqual([]);
    expect(venueIssues({ online: false })).toEqual([]);
  });
});
