// Issue 25's erasure proof: one person, run through every area the API now writes, leaves no copy
// after `person erase`. They register, are captured as a lead who shares their email, are invited
// to the crew and take a shift, answer a survey and rate a session, join a community and get a
// share link, all through API calls; then every column of every table is searched for their
// names and address. What they gave anonymously (the survey's result) still counts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { schemaColumns } from '../../db/dialect';
import { person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let summit: string;
let surveyId: string;
const tag = Math.random().toString(36).slice(2, 8);
const who = { firstName: `Ysolde${tag}`, lastName: `Quarrington${tag}`, email: `ysolde.${tag}@example.net` };
const needles = [who.firstName, who.lastName, `ysolde.${tag}`];

async function whereTheyAppear(): Promise<string[]> {
  const db = t.server.services.db;
  const found: string[] = [];
  for (const [table, columns] of await schemaColumns(db))
    for (const { name: column } of columns)
      for (const needle of needles) {
        const hit = await sql<{ n: number }>`
          select count(*) as n from ${sql.table(table)} where lower(cast(${sql.ref(column)} as text)) like ${`%${needle.toLowerCase()}%`}`.execute(
          db,
        );
        if (Number(hit.rows[0]!.n) > 0) found.push(`${table}.${column} holds ${needle}`);
      }
  return found;
}

async function ok(path: string, body: Record<string, unknown>, status = 201) {
  const res = await t.api(path, {
    key,
    method: 'POST',
    body,
    headers: { 'idempotency-key': `${tag}-${path}` },
  });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Erasure after running the event', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  const registered = await register(t, key, summit, [person(ids.ticketType('summit', 'standard'), who)]);
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const attendeeId = registered.body.attendees[0].attendeeId as string;

  // Sponsors: a level, a sponsor, and the person captured at its booth, sharing their email.
  const level = await ok(`/events/${summit}/sponsor-levels`, {
    name: `Level ${tag}`,
    rank: 2,
    colour: '#336699',
  });
  const sponsor = await ok(`/events/${summit}/sponsors`, { name: `Sponsor ${tag}`, levelId: level.levelId });
  await ok(`/events/${summit}/leads`, {
    sponsorId: sponsor.sponsorId,
    attendeeId,
    consent: true,
    shareEmail: true,
    rating: 3,
    note: `Met ${who.firstName} at the booth`,
  });

  // Crew: invited with their own ticket, signed up for a shift.
  const crew = await ok(`/events/${summit}/crew`, {
    name: `${who.firstName} ${who.lastName}`,
    email: who.email,
    phone: '+47 400 00 000',
    roles: ['greeter'],
    attendeeId,
  });
  const shift = await ok(`/events/${summit}/shifts`, {
    role: 'greeter',
    place: { kind: 'area', name: `Foyer ${tag}` },
    startsLocal: '2027-05-01T08:00',
    endsLocal: '2027-05-01T10:00',
    needed: 2,
  });
  await ok(`/events/${summit}/shifts/${shift.shiftId}/crew`, { crewMemberId: crew.crewMemberId }, 200);

  // Feedback: a survey answered and a session rated.
  const survey = await ok(`/events/${summit}/surveys`, {
    title: { en: `Day ${tag}` },
    questions: [{ id: 'overall', kind: 'rating', label: { en: 'The day' } }],
  });
  surveyId = survey.surveyId;
  await ok(`/events/${summit}/surveys/${surveyId}/answers`, { attendeeId, answers: { overall: 5 } });
  const sessionId = (await t.api(`/events/${summit}/sessions`, { key })).body.data[0].sessionId;
  await ok(`/events/${summit}/sessions/${sessionId}/ratings`, { attendeeId, stars: 4 });

  // Community: joined an open one.
  const community = await ok('/communities', {
    slug: `erasure-${tag}`,
    name: `Club ${tag}`,
    timeZone: 'Europe/Oslo',
    joinPolicy: 'open',
  });
  await ok(`/communities/${community.communityId}/members`, {
    name: `${who.firstName} ${who.lastName}`,
    email: who.email,
  });

  // Share kit: their own link.
  await ok(`/events/${summit}/share-links`, { attendeeId, channel: 'linkedin' });
});
afterAll(async () => t.close());

describe('erasing a person who was run through every area', () => {
  it('finds them in the areas they were run through before, and nowhere after', async () => {
    const before = (await whereTheyAppear()).map((hit) => hit.split('.')[0]);
    for (const table of ['attendees', 'leads', 'crew_members', 'community_members', 'sharers'])
      expect(before, table).toContain(table);
    const result = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      email: who.email,
    });
    expect(result).toBeDefined();
    expect(await whereTheyAppear()).toEqual([]);
  });

  it('keeps what they gave anonymously counted', async () => {
    const results = await t.api(`/events/${summit}/surveys/${surveyId}/results`, { key });
    expect(results.status).toBe(200);
    expect(JSON.stringify(results.body)).toContain('"responses":1');
  });
});
