// A ticket's code accepted wherever a scan names a ticket, beside the attendee id, exactly one of the
// two: offline scans (a code naming no ticket is that scan's attendeeNotFound), lead capture, survey
// answers and session ratings (a malformed code a 400 naming ticketCode, another event's a 404).
// Over HTTPS, and lead capture through the MCP tool too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { callTool, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let summit: string;
let meetup: string;
let standard: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Codes in scans', true);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
  meetup = sampleIds(workspaceId).event('meetup');
  standard = sampleIds(workspaceId).ticketType('summit', 'standard');
});
afterAll(async () => t?.close());

/** A new attendee of the summit: their id and ticket code. */
async function visitor(): Promise<{ attendeeId: string; ticketCode: string }> {
  const attendeeId = (await register(t, key, summit, [person(standard)])).body.attendees[0].attendeeId;
  const { ticketCode } = (await t.api(`/events/${summit}/attendees/${attendeeId}`, { key })).body;
  return { attendeeId, ticketCode };
}

/** A ticket of another event of the workspace. */
async function meetupCode(): Promise<string> {
  const attendee = (await t.api(`/events/${meetup}/attendees?limit=1`, { key })).body.data[0];
  return attendee.ticketCode;
}

/** Whose lead it is: the lead's view shows no attendee id. */
async function leadHolder(leadId: string): Promise<string | null> {
  const row = await t.server.services.db
    .selectFrom('leads')
    .select('attendee_id')
    .where('id', '=', leadId)
    .executeTakeFirstOrThrow();
  return row.attendee_id;
}

const fieldsOf = (problem: Record<string, any>) => problem.errors.map((e: { field: string }) => e.field);

describe('offline scans', () => {
  const upload = (scans: Record<string, unknown>[]) =>
    t.api(`/events/${summit}/check-ins/offline`, { key, method: 'POST', body: { scans } });
  const now = () => new Date().toISOString();

  it('takes ticketCode instead of attendeeId, as a bare code, in lower case or as the address', async () => {
    const [a, b, c] = [await visitor(), await visitor(), await visitor()];
    const res = await upload([
      { scanId: '1', ticketCode: a.ticketCode, scannedUtc: now() },
      { scanId: '2', ticketCode: b.ticketCode.toLowerCase(), scannedUtc: now() },
      { scanId: '3', ticketCode: `${t.server.origin}/t/${c.ticketCode}`, scannedUtc: now() },
      { scanId: '4', attendeeId: a.attendeeId, scannedUtc: now() },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((d: any) => [d.scanId, d.attendeeId, d.result, d.error])).toEqual([
      ['1', a.attendeeId, 'welcome', null],
      ['2', b.attendeeId, 'welcome', null],
      ['3', c.attendeeId, 'welcome', null],
      ['4', a.attendeeId, 'again', null],
    ]);
  });

  it("answers a code naming no ticket of the event as that scan's attendeeNotFound, the others applied", async () => {
    const a = await visitor();
    const res = await upload([
      { scanId: 'junk', ticketCode: 'not a ticket', scannedUtc: now() },
      { scanId: 'other', ticketCode: await meetupCode(), scannedUtc: now() },
      { scanId: 'good', ticketCode: a.ticketCode, scannedUtc: now() },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => [d.scanId, d.attendeeId, d.result, d.error?.code ?? null])).toEqual([
      ['junk', null, null, 'attendeeNotFound'],
      ['other', null, null, 'attendeeNotFound'],
      ['good', a.attendeeId, 'welcome', null],
    ]);
  });

  it('refuses a scan naming its ticket both ways or neither, naming each field', async () => {
    const a = await visitor();
    const problem = expectProblem(
      await upload([
        { attendeeId: a.attendeeId, scannedUtc: now() },
        { attendeeId: a.attendeeId, ticketCode: a.ticketCode, scannedUtc: now() },
        { scannedUtc: now() },
      ]),
      400,
      'invalidRequest',
    );
    expect(fieldsOf(problem).sort()).toEqual([
      'scans.1.attendeeId',
      'scans.1.ticketCode',
      'scans.2.attendeeId',
      'scans.2.ticketCode',
    ]);
  });
});

describe('lead capture', () => {
  const capture = (body: Record<string, unknown>) =>
    t.api(`/events/${summit}/leads`, { key, method: 'POST', body });
  let sponsorId: string;
  beforeAll(async () => {
    sponsorId = (await t.api(`/events/${summit}/sponsors`, { key })).body.data[0].sponsorId;
  });

  it("captures the visitor named by their ticket's code, the same lead as by attendee id", async () => {
    const v = await visitor();
    const byCode = await capture({ sponsorId, ticketCode: v.ticketCode, consent: true, rating: 2 });
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(201);
    expect(await leadHolder(byCode.body.lead.leadId)).toBe(v.attendeeId);
    const byId = await capture({ sponsorId, attendeeId: v.attendeeId, consent: true, rating: 3 });
    expect(byId.body.lead.leadId).toBe(byCode.body.lead.leadId);
  });

  it('refuses a malformed code (400 ticketCode), both or neither (400), another event’s code (404)', async () => {
    const v = await visitor();
    const base = { sponsorId, consent: false, rating: 1 };
    expect(
      fieldsOf(expectProblem(await capture({ ...base, ticketCode: 'ABC' }), 400, 'invalidRequest')),
    ).toEqual(['ticketCode']);
    expect(
      fieldsOf(
        expectProblem(
          await capture({ ...base, attendeeId: v.attendeeId, ticketCode: v.ticketCode }),
          400,
          'invalidRequest',
        ),
      ).sort(),
    ).toEqual(['attendeeId', 'ticketCode']);
    expect(fieldsOf(expectProblem(await capture(base), 400, 'invalidRequest')).sort()).toEqual([
      'attendeeId',
      'ticketCode',
    ]);
    expectProblem(await capture({ ...base, ticketCode: await meetupCode() }), 404, 'attendeeNotFound');
  });

  it('captures by code through the capture_lead tool', async () => {
    const v = await visitor();
    const client = await t.mcp(key, {}, '?toolsets=sponsors');
    const tool = await callTool(client, 'capture_lead', {
      eventId: summit,
      sponsorId,
      ticketCode: `${t.server.origin}/t/${v.ticketCode}`,
      consent: false,
      rating: 1,
    });
    expect(tool.isError, JSON.stringify(tool.data)).toBe(false);
    expect(await leadHolder(tool.data.lead.leadId)).toBe(v.attendeeId);
    const bad = await callTool(client, 'capture_lead', {
      eventId: summit,
      sponsorId,
      consent: false,
      rating: 1,
    });
    expect(bad.isError).toBe(true);
    expect(bad.data.code).toBe('invalidRequest');
    await client.close();
  });
});

describe('feedback', () => {
  let surveyId: string;
  let sessionId: string;
  beforeAll(async () => {
    const made = await t.api(`/events/${summit}/surveys`, {
      key,
      method: 'POST',
      body: {
        title: { en: 'Day one' },
        questions: [{ id: 'overall', kind: 'rating', label: { en: 'How was it?' } }],
        opensUtc: '2020-01-01T00:00:00Z',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    surveyId = made.body.surveyId;
    sessionId = (await t.api(`/events/${summit}/sessions`, { key })).body.data[0].sessionId;
  });
  const answer = (body: Record<string, unknown>) =>
    t.api(`/events/${summit}/surveys/${surveyId}/answers`, { key, method: 'POST', body });
  const rate = (body: Record<string, unknown>) =>
    t.api(`/events/${summit}/sessions/${sessionId}/ratings`, { key, method: 'POST', body });

  it('takes survey answers from the attendee named by ticket code, once each whichever way', async () => {
    const v = await visitor();
    const first = await answer({ ticketCode: v.ticketCode.toLowerCase(), answers: { overall: 5 } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expectProblem(
      await answer({ attendeeId: v.attendeeId, answers: { overall: 4 } }),
      409,
      'alreadyAnswered',
    );
  });

  it('takes a session rating by ticket code', async () => {
    const v = await visitor();
    const res = await rate({ ticketCode: v.ticketCode, stars: 4 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectProblem(await rate({ attendeeId: v.attendeeId, stars: 2 }), 409, 'alreadyRated');
  });

  it('refuses a malformed code, both or neither (400 naming the fields), and another event’s code (404)', async () => {
    const v = await visitor();
    expect(
      fieldsOf(
        expectProblem(await answer({ ticketCode: 'x', answers: { overall: 5 } }), 400, 'invalidRequest'),
      ),
    ).toEqual(['ticketCode']);
    expect(
      fieldsOf(
        expectProblem(
          await answer({ attendeeId: v.attendeeId, ticketCode: v.ticketCode, answers: { overall: 5 } }),
          400,
          'invalidRequest',
        ),
      ).sort(),
    ).toEqual(['attendeeId', 'ticketCode']);
    expect(fieldsOf(expectProblem(await rate({ stars: 3 }), 400, 'invalidRequest')).sort()).toEqual([
      'attendeeId',
      'ticketCode',
    ]);
    expectProblem(
      await answer({ ticketCode: await meetupCode(), answers: { overall: 5 } }),
      404,
      'attendeeNotFound',
    );
  });
});
