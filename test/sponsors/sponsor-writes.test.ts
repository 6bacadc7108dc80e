// Sponsors, levels and leads run live over HTTPS (issue 25, items 2 and 3): levels and sponsors
// added, changed (If-Match) and removed (a level in use and a sponsor with leads refused, naming how
// many); leads captured by attendee id with the visitor's consent stated each time (nothing personal
// kept without it; one lead per sponsor and visitor, even under concurrent captures; lead.captured
// when a capture makes the lead shared), changed and removed; a sponsor's export obeying its level's
// download and window; the scopes (sponsors:write, the booth's leads:write), the modules, the
// demonstration workspace, idempotent creates, strict bodies and updatedSince on the export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { outbox, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let summit: string;
let standard: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Sponsor writes', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
  standard = sampleIds(workspaceId).ticketType('summit', 'standard');
});
afterAll(async () => t?.close());

const sample = (name: string) => sampleId(workspaceId, name);
const levelsPath = () => `/events/${summit}/sponsor-levels`;
const sponsorsPath = () => `/events/${summit}/sponsors`;
const leadsPath = () => `/events/${summit}/leads`;

async function newVisitor(extra: Record<string, unknown> = {}) {
  const body = person(standard, { company: 'Visitor AS', jobTitle: 'CTO', ...extra });
  const res = await register(t, key, summit, [body]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const made = body as { firstName: string; lastName: string; email: string };
  return { ...made, attendeeId: res.body.attendees[0].attendeeId as string };
}

async function newLevel(body: Record<string, unknown> = {}) {
  const res = await t.api(levelsPath(), {
    key,
    method: 'POST',
    body: { name: 'Bronze', rank: 1, colour: '#CD7F32', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}

async function newSponsor(body: Record<string, unknown> = {}) {
  const res = await t.api(sponsorsPath(), { key, method: 'POST', body: { name: 'Acme AS', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}

function capture(body: Record<string, unknown>, k = key, headers: Record<string, string> = {}) {
  return t.api(leadsPath(), { key: k, method: 'POST', body, headers });
}

const storedLead = (leadId: string) =>
  t.server.services.db.selectFrom('leads').selectAll().where('id', '=', leadId).executeTakeFirst();
const capturedMessages = async () => (await outbox(t, workspaceId)).filter((m) => m.type === 'lead.captured');

describe('sponsor levels', () => {
  it('adds a level (201, ETag) with the defaults, the colour in lower case, listed by rank', async () => {
    const res = await newLevel({
      name: 'Platinum',
      rank: 9,
      leadDownload: true,
      leadExportUntil: '2099-12-31',
    });
    expect(res.headers.get('etag')).toMatch(/^(W\/)?"/);
    expect(res.body).toEqual({
      levelId: expect.any(String),
      eventId: summit,
      name: 'Platinum',
      rank: 9,
      colour: '#cd7f32',
      staffAllowance: 0,
      freeTickets: 0,
      leadDownload: true,
      leadExportUntil: '2099-12-31',
      discountCodes: 0,
      discountPercent: 0,
      logoOnPage: false,
      logoOnScreens: false,
      logoOnBadges: false,
      sponsoredSession: false,
    });
    const listed = (await t.api(levelsPath(), { key })).body.data;
    expect(listed[0]).toEqual(res.body);
  });

  it('names every bad field at once, the window without a download among them, and refuses unknown fields', async () => {
    const res = await t.api(levelsPath(), {
      key,
      method: 'POST',
      body: { name: 'X', rank: 0, colour: 'gold', discountPercent: 101 },
    });
    const fields = expectProblem(res, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['rank', 'colour', 'discountPercent']));
    const window = await t.api(levelsPath(), {
      key,
      method: 'POST',
      body: { name: 'X', rank: 1, colour: '#000000', leadExportUntil: '2099-01-01' },
    });
    expect(expectProblem(window, 400, 'invalidRequest').errors).toEqual([
      { field: 'leadExportUntil', message: expect.stringContaining('leadDownload') },
    ]);
    const unknown = await t.api(levelsPath(), {
      key,
      method: 'POST',
      body: { name: 'X', rank: 1, colour: '#000000', sponsorsAllowed: 3 },
    });
    expect(expectProblem(unknown, 400, 'invalidRequest').errors[0].field).toBe('sponsorsAllowed');
  });

  it('changes a level with If-Match; a stale tag answers 412; switching the download off ends its window', async () => {
    const made = await newLevel({ leadDownload: true, leadExportUntil: '2099-01-01' });
    const path = `${levelsPath()}/${made.body.levelId}`;
    const changed = await t.api(path, {
      key,
      method: 'PATCH',
      body: { freeTickets: 3, logoOnPage: true },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ freeTickets: 3, logoOnPage: true, leadExportUntil: '2099-01-01' });
    const stale = await t.api(path, {
      key,
      method: 'PATCH',
      body: { freeTickets: 4 },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    const off = await t.api(path, { key, method: 'PATCH', body: { leadDownload: false } });
    expect(off.body).toMatchObject({ leadDownload: false, leadExportUntil: null, freeTickets: 3 });
    expect(
      (await t.api(path, { key, method: 'PATCH', body: { leadExportUntil: '2099-02-01' } })).status,
    ).toBe(400);
  });

  it('refuses to remove a level sponsors have (409 levelInUse naming how many), removes it once they moved', async () => {
    const level = (await newLevel({ name: 'Used' })).body.levelId;
    const a = (await newSponsor({ name: 'First user', levelId: level })).body.sponsorId;
    const b = (await newSponsor({ name: 'Second user', levelId: level })).body.sponsorId;
    const path = `${levelsPath()}/${level}`;
    const refused = expectProblem(await t.api(path, { key, method: 'DELETE' }), 409, 'levelInUse');
    expect(refused.sponsorCount).toBe(2);
    expect(refused.detail).toContain('2 sponsors');
    for (const id of [a, b])
      expect(
        (await t.api(`${sponsorsPath()}/${id}`, { key, method: 'PATCH', body: { levelId: null } })).status,
      ).toBe(200);
    const removed = await t.api(path, { key, method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expectProblem(await t.api(path, { key, method: 'DELETE' }), 404, 'notFound');
    const levels = (await t.api(`${levelsPath()}?limit=100`, { key })).body.data.map((l: any) => l.levelId);
    expect(levels).not.toContain(level);
  });

  it("changes the level's sponsors too when its name or rank changes (updatedSince finds them)", async () => {
    const level = (await newLevel({ name: 'Renamed', rank: 2 })).body.levelId;
    const sponsor = (await newSponsor({ name: 'Follower', levelId: level })).body.sponsorId;
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await t.api(`${levelsPath()}/${level}`, { key, method: 'PATCH', body: { name: 'Renamed again' } });
    const changed = (await t.api(`${sponsorsPath()}?updatedSince=${since}`, { key })).body.data;
    expect(changed.map((s: any) => [s.sponsorId, s.level])).toEqual([[sponsor, 'Renamed again']]);
  });
});

describe('sponsors', () => {
  it('adds a sponsor last within its level (201, ETag), with the fields the list shows', async () => {
    const silver = sample('sponsor-level/summit/silver');
    const res = await newSponsor({
      name: 'Glacier Cloud',
      levelId: silver,
      website: 'https://glacier.example.com',
      logoUrl: 'https://glacier.example.com/logo.png',
      description: 'Cold storage.',
      booth: 'C4',
    });
    expect(res.headers.get('etag')).toMatch(/"/);
    expect(res.body).toEqual({
      sponsorId: expect.any(String),
      eventId: summit,
      name: 'Glacier Cloud',
      level: 'Silver',
      levelId: silver,
      levelRank: 2,
      website: 'https://glacier.example.com',
      logoUrl: 'https://glacier.example.com/logo.png',
      description: 'Cold storage.',
      booth: 'C4',
      sortOrder: 3,
    });
    const listed = (await t.api(`${sponsorsPath()}?limit=100`, { key })).body.data;
    expect(listed.find((s: any) => s.sponsorId === res.body.sponsorId)).toEqual(res.body);
  });

  it('names a level of another event and a link that is not https, and replays an idempotent create', async () => {
    const meetupLevel = sample(`sponsor-level/meetup/partner`);
    const bad = await t.api(sponsorsPath(), {
      key,
      method: 'POST',
      body: { name: 'Bad', levelId: sampleIds(workspaceId).event('meetup'), website: 'http://x.example.com' },
    });
    const fields = expectProblem(bad, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields).toContain('website');
    const wrongLevel = await t.api(sponsorsPath(), {
      key,
      method: 'POST',
      body: { name: 'Bad', levelId: meetupLevel },
    });
    expect(expectProblem(wrongLevel, 400, 'invalidRequest').errors[0].field).toBe('levelId');

    const headers = { 'idempotency-key': `sponsor-${Math.random()}` };
    const first = await t.api(sponsorsPath(), { key, method: 'POST', body: { name: 'Once AS' }, headers });
    const again = await t.api(sponsorsPath(), { key, method: 'POST', body: { name: 'Once AS' }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const named = (await t.api(`${sponsorsPath()}?limit=100`, { key })).body.data.filter(
      (s: any) => s.name === 'Once AS',
    );
    expect(named).toHaveLength(1);
  });

  it('moves a sponsor to another level, last there; a stale If-Match answers 412', async () => {
    const made = await newSponsor({ name: 'Mover', levelId: sample('sponsor-level/summit/community') });
    const path = `${sponsorsPath()}/${made.body.sponsorId}`;
    const moved = await t.api(path, {
      key,
      method: 'PATCH',
      body: { levelId: sample('sponsor-level/summit/gold'), booth: null },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ level: 'Gold', levelRank: 3, sortOrder: 3, booth: null });
    const stale = await t.api(path, {
      key,
      method: 'PATCH',
      body: { name: 'Late' },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    expectProblem(
      await t.api(`${sponsorsPath()}/${sample('sponsor/meetup/sakura')}`, {
        key,
        method: 'PATCH',
        body: { name: 'x' },
      }),
      404,
      'notFound',
    );
  });

  it('refuses to remove a sponsor with leads (409 sponsorHasLeads naming how many) unless withLeads is true', async () => {
    const sponsor = (await newSponsor({ name: 'Leaving AS' })).body.sponsorId;
    for (const consent of [true, false]) {
      const visitor = await newVisitor();
      expect(
        (await capture({ sponsorId: sponsor, attendeeId: visitor.attendeeId, consent, rating: 2 })).status,
      ).toBe(201);
    }
    const path = `${sponsorsPath()}/${sponsor}`;
    const refused = expectProblem(await t.api(path, { key, method: 'DELETE' }), 409, 'sponsorHasLeads');
    expect(refused.leadCount).toBe(2);
    expect(refused.detail).toContain('2 leads');
    expect((await t.api(`${path}?withLeads=true`, { key, method: 'DELETE' })).status).toBe(204);
    const left = await t.server.services.db
      .selectFrom('leads')
      .select('id')
      .where('sponsor_id', '=', sponsor)
      .execute();
    expect(left).toEqual([]);
    expectProblem(await t.api(path, { key, method: 'DELETE' }), 404, 'notFound');
  });
});

describe('leads captured live', () => {
  const fjord = () => sample('sponsor/summit/fjord');

  it("keeps the visitor's details with consent, the email only when shared too, and sends lead.captured once", async () => {
    const visitor = await newVisitor();
    const before = (await capturedMessages()).length;
    const res = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: true,
      shareEmail: true,
      rating: 2,
      answers: { interest: 'analytics' },
      note: 'Wants a call.',
      capturedBy: 'Marte Berg',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/"/);
    expect(res.body.sponsor).toEqual({ sponsorId: fjord(), name: 'Fjord Labs' });
    expect(res.body.lead).toMatchObject({
      shared: true,
      firstName: visitor.firstName,
      lastName: visitor.lastName,
      company: 'Visitor AS',
      jobTitle: 'CTO',
      email: visitor.email,
      origin: 'booth',
      rating: 2,
      answers: { interest: 'analytics' },
      note: 'Wants a call.',
      capturedBy: 'Marte Berg',
      personalData: 'included',
    });
    const messages = (await capturedMessages()).slice(before);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload.data.lead.leadId).toBe(res.body.lead.leadId);

    // A second capture by the same sponsor updates the lead: no second lead, no second message.
    const again = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: true,
      rating: 3,
    });
    expect(again.status).toBe(201);
    expect(again.body.lead).toMatchObject({
      leadId: res.body.lead.leadId,
      rating: 3,
      email: null,
      answers: { interest: 'analytics' },
      note: 'Wants a call.',
      capturedBy: 'Marte Berg',
      capturedUtc: res.body.lead.capturedUtc,
    });
    expect((await capturedMessages()).slice(before)).toHaveLength(1);
    const listed = (await t.api(`${leadsPath()}?limit=100`, { key })).body.data.filter(
      (i: any) => i.lead.leadId === res.body.lead.leadId,
    );
    expect(listed).toEqual([again.body]);
  });

  it('keeps nothing personal without consent and never lists it; consent given later makes it shared and sends lead.captured', async () => {
    const visitor = await newVisitor();
    const before = (await capturedMessages()).length;
    const res = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: false,
      rating: 1,
      note: 'Busy.',
    });
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({
      shared: false,
      firstName: null,
      email: null,
      company: null,
      answers: {},
    });
    const row = await storedLead(res.body.lead.leadId);
    expect(row).toMatchObject({
      shared: 0,
      email_shared: 0,
      first_name: null,
      last_name: null,
      company: null,
      job_title: null,
      email: null,
      answers: null,
    });
    const listed = async () =>
      (await t.api(`${leadsPath()}?limit=100`, { key })).body.data.map((i: any) => i.lead.leadId);
    expect(await listed()).not.toContain(res.body.lead.leadId);
    expect((await capturedMessages()).slice(before)).toHaveLength(0);

    const agreed = await capture({ sponsorId: fjord(), attendeeId: visitor.attendeeId, consent: true });
    expect(agreed.body.lead).toMatchObject({
      leadId: res.body.lead.leadId,
      shared: true,
      firstName: visitor.firstName,
      rating: 1,
    });
    expect(await listed()).toContain(res.body.lead.leadId);
    expect((await capturedMessages()).slice(before)).toHaveLength(1);

    // Consent withdrawn at a later capture: the copies go, and the lead leaves the list.
    const withdrawn = await capture({ sponsorId: fjord(), attendeeId: visitor.attendeeId, consent: false });
    expect(withdrawn.body.lead).toMatchObject({ shared: false, firstName: null });
    expect(await storedLead(res.body.lead.leadId)).toMatchObject({
      first_name: null,
      company: null,
      shared: 0,
    });
    expect(await listed()).not.toContain(res.body.lead.leadId);
  });

  it('names the fields that need consent, a first capture without a rating and a session lead without its session', async () => {
    const visitor = await newVisitor();
    const noConsent = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: false,
      shareEmail: true,
      answers: { a: 1 },
      rating: 1,
      origin: 'session',
    });
    const fields = expectProblem(noConsent, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields.sort()).toEqual(['answers', 'attendedSessionId', 'shareEmail']);
    const noRating = await capture({ sponsorId: fjord(), attendeeId: visitor.attendeeId, consent: true });
    expect(expectProblem(noRating, 400, 'invalidRequest').errors[0].field).toBe('rating');
    const otherEventSession = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: true,
      rating: 1,
      origin: 'session',
      attendedSessionId: sampleIds(workspaceId).event('meetup'),
    });
    expect(expectProblem(otherEventSession, 400, 'invalidRequest').errors[0].field).toBe('attendedSessionId');
    expect((await storedLeadsOf(visitor.attendeeId)).length).toBe(0);
  });

  it("refuses a visitor of another event (404 attendeeNotFound), a cancelled ticket (409) and another event's sponsor (404)", async () => {
    const visitor = await newVisitor();
    const cancelled = await t.api(`/events/${summit}/attendees/${visitor.attendeeId}/cancel`, {
      key,
      method: 'POST',
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expectProblem(
      await capture({ sponsorId: fjord(), attendeeId: visitor.attendeeId, consent: true, rating: 1 }),
      409,
      'alreadyCancelled',
    );
    expectProblem(
      await capture({
        sponsorId: fjord(),
        attendeeId: sampleIds(workspaceId).event('meetup'),
        consent: true,
        rating: 1,
      }),
      404,
      'attendeeNotFound',
    );
    const other = await newVisitor();
    expectProblem(
      await capture({
        sponsorId: sample('sponsor/meetup/sakura'),
        attendeeId: other.attendeeId,
        consent: true,
        rating: 1,
      }),
      404,
      'notFound',
    );
  });

  it('makes one lead and one lead.captured of many captures of a visitor arriving together', async () => {
    const visitor = await newVisitor();
    const before = (await capturedMessages()).length;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        capture({ sponsorId: fjord(), attendeeId: visitor.attendeeId, consent: true, rating: (i % 3) + 1 }),
      ),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(new Set(answers.map((a) => a.body.lead.leadId)).size).toBe(1);
    expect(await storedLeadsOf(visitor.attendeeId)).toHaveLength(1);
    expect((await capturedMessages()).slice(before)).toHaveLength(1);
  });

  it('changes a lead with If-Match (412 when stale), refuses answers for an unshared one, and removes it', async () => {
    const visitor = await newVisitor();
    const made = await capture({
      sponsorId: fjord(),
      attendeeId: visitor.attendeeId,
      consent: true,
      rating: 1,
    });
    const path = `${leadsPath()}/${made.body.lead.leadId}`;
    const changed = await t.api(path, {
      key,
      method: 'PATCH',
      body: { rating: 3, note: 'Hot.', answers: { budget: 'yes' } },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.lead).toMatchObject({ rating: 3, note: 'Hot.', answers: { budget: 'yes' } });
    expectProblem(
      await t.api(path, {
        key,
        method: 'PATCH',
        body: { rating: 2 },
        headers: { 'if-match': made.headers.get('etag')! },
      }),
      412,
      'preconditionFailed',
    );
    const unshared = await newVisitor();
    const quiet = await capture({
      sponsorId: fjord(),
      attendeeId: unshared.attendeeId,
      consent: false,
      rating: 1,
    });
    const refused = await t.api(`${leadsPath()}/${quiet.body.lead.leadId}`, {
      key,
      method: 'PATCH',
      body: { answers: { a: 1 } },
    });
    expect(expectProblem(refused, 400, 'invalidRequest').errors[0].field).toBe('answers');
    expect((await t.api(path, { key, method: 'DELETE' })).status).toBe(204);
    expect(await storedLead(made.body.lead.leadId)).toBeUndefined();
    expectProblem(await t.api(path, { key, method: 'DELETE' }), 404, 'notFound');
  });
});

async function storedLeadsOf(attendeeId: string) {
  return t.server.services.db
    .selectFrom('leads')
    .select('id')
    .where('attendee_id', '=', attendeeId)
    .execute();
}

describe("a sponsor's export of its leads", () => {
  it("gives the sponsor its shared leads while its level's download is open, and refuses when closed, saying why", async () => {
    const level = (await newLevel({ name: 'Exporting', leadDownload: true, leadExportUntil: '2099-12-31' }))
      .body.levelId;
    const sponsor = (await newSponsor({ name: 'Exporter', levelId: level })).body.sponsorId;
    const shared = await newVisitor();
    const quiet = await newVisitor();
    const lead = (
      await capture({ sponsorId: sponsor, attendeeId: shared.attendeeId, consent: true, rating: 2 })
    ).body;
    await capture({ sponsorId: sponsor, attendeeId: quiet.attendeeId, consent: false, rating: 2 });
    const path = `${sponsorsPath()}/${sponsor}/leads`;
    const open = await t.api(path, { key });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body).toEqual({ data: [lead], hasMore: false, nextCursor: null });
    expect((await t.api(`${path}?updatedSince=2999-01-01T00:00:00Z`, { key })).body.data).toEqual([]);
    expectProblem(await t.api(`${path}?updatedSince=soon`, { key }), 400, 'invalidUpdatedSince');

    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await t.api(`${levelsPath()}/${level}`, { key, method: 'PATCH', body: { leadExportUntil: yesterday } });
    expect(expectProblem(await t.api(path, { key }), 409, 'leadDownloadClosed').detail).toContain(yesterday);
    await t.api(`${levelsPath()}/${level}`, { key, method: 'PATCH', body: { leadDownload: false } });
    expect(expectProblem(await t.api(path, { key }), 409, 'leadDownloadClosed').detail).toContain(
      'does not include',
    );
    await t.api(`${sponsorsPath()}/${sponsor}`, { key, method: 'PATCH', body: { levelId: null } });
    expect(expectProblem(await t.api(path, { key }), 409, 'leadDownloadClosed').detail).toContain(
      'no sponsor level',
    );
    // The organiser's own list is the API's and keeps every shared lead.
    const all = (await t.api(`${leadsPath()}?limit=100`, { key })).body.data.map((i: any) => i.lead.leadId);
    expect(all).toContain(lead.lead.leadId);
  });

  it('needs people:read (403 peopleScope)', async () => {
    const { key: noPeople } = await t.key({ workspaceId, scopes: ['sponsors:read'] });
    expectProblem(
      await t.api(`${sponsorsPath()}/${sample('sponsor/summit/fjord')}/leads`, { key: noPeople }),
      403,
      'peopleScope',
    );
  });
});

describe('scopes, modules and the demonstration workspace', () => {
  it("lets a booth's leads:write capture but not change sponsors; sponsors:write captures too; sponsors:read neither", async () => {
    const { key: booth } = await t.key({ workspaceId, scopes: ['leads:write'] });
    const { key: organiser } = await t.key({ workspaceId, scopes: ['sponsors:write'] });
    const { key: reader } = await t.key({ workspaceId, scopes: ['sponsors:read', 'people:read'] });
    const visitor = await newVisitor();
    const body = {
      sponsorId: sample('sponsor/summit/polar'),
      attendeeId: visitor.attendeeId,
      consent: true,
      rating: 2,
    };
    const byBooth = await capture(body, booth);
    expect(byBooth.status).toBe(201);
    // Without people:read the booth's answer withholds the visitor's details.
    expect(byBooth.body.lead).toMatchObject({ firstName: null, email: null, personalData: 'withheld' });
    expect((await capture(body, organiser)).status).toBe(201);
    expect(expectProblem(await capture(body, reader), 403, 'missingScope').scope).toBe('leads:write');
    expect(
      expectProblem(
        await t.api(sponsorsPath(), { key: booth, method: 'POST', body: { name: 'x' } }),
        403,
        'missingScope',
      ).scope,
    ).toBe('sponsors:write');
    expect(
      expectProblem(
        await t.api(levelsPath(), { key: reader, method: 'POST', body: { name: 'x' } }),
        403,
        'missingScope',
      ).scope,
    ).toBe('sponsors:write');
  });

  it('answers 409 moduleOff at the meetup, whose sponsors and leads are switched off', async () => {
    const meetup = sampleIds(workspaceId).event('meetup');
    const level = await t.api(`/events/${meetup}/sponsor-levels`, {
      key,
      method: 'POST',
      body: { name: 'x', rank: 1, colour: '#000000' },
    });
    expect(expectProblem(level, 409, 'moduleOff').module).toBe('sponsors');
    const lead = await t.api(`/events/${meetup}/leads`, {
      key,
      method: 'POST',
      body: {
        sponsorId: sample('sponsor/meetup/sakura'),
        attendeeId: sample('sponsor/meetup/sakura'),
        consent: false,
        rating: 1,
      },
    });
    expect(expectProblem(lead, 409, 'moduleOff').module).toBe('leads');
  });

  it('refuses the demonstration workspace (403 demoWorkspace)', async () => {
    const demo = t.server.demoKey;
    const event = (await t.api('/events', { key: demo })).body.data[0].eventId;
    for (const [path, body] of [
      [`/events/${event}/sponsor-levels`, { name: 'x', rank: 1, colour: '#000000' }],
      [`/events/${event}/sponsors`, { name: 'x' }],
      [`/events/${event}/leads`, { sponsorId: event, attendeeId: event, consent: false, rating: 1 }],
    ] as const)
      expectProblem(await t.api(path, { key: demo, method: 'POST', body }), 403, 'demoWorkspace');
  });
});
