// Speakers' logistics run by an assistant through the MCP client alone (issue 26, item 3): it
// requests a stay for a speaker, assigns, changes and cancels it, books, changes and cancels a
// journey for a crew member, submits, approves and pays an expense claim, meets a move the status
// does not allow, a stale ifMatch and a replayed idempotencyKey as tool answers, removes what was
// entered by mistake, and reads the results back. The tools are extensions, annotated by effect.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { closeAssistantOnEvent, startAssistantOnEvent, toolOnEvent } from '../support/assistant-on-event';
import { eventBody } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool, sampleIds } from '../support/sales';
import type { TestServer } from '../support/server';

let t: TestServer;
let client: Client;
let eventId: string;
let workspaceId: string;

const writeTools = [
  'request_stay',
  'assign_stay',
  'update_stay',
  'cancel_stay',
  'delete_stay',
  'book_travel',
  'update_travel',
  'cancel_travel',
  'delete_travel',
  'submit_claim',
  'approve_claim',
  'decline_claim',
  'pay_claim',
];
const removers = ['delete_stay', 'delete_travel'];

beforeAll(async () => {
  ({ t, workspaceId, client, eventId } = await startAssistantOnEvent(
    'Logistics assistant',
    'logistics,finance,programme,crew',
  ));
});
afterAll(() => closeAssistantOnEvent({ t, client }));

const ok = (name: string, args: Record<string, unknown>) => toolOnEvent(client, eventId, name, args);
const refused = (name: string, args: Record<string, unknown>) =>
  toolOnEvent(client, eventId, name, args, true);

describe('an assistant arranges speakers and crew', () => {
  it('lists the logistics and claim tools as extensions, destructive only where they remove', async () => {
    const tools = (await client.listTools()).tools.filter((x) => writeTools.includes(x.name));
    expect(tools.map((x) => x.name).sort()).toEqual([...writeTools].sort());
    for (const tool of tools) {
      expect(tool.description, tool.name).toContain('Tessera extension.');
      const hints = hintsOf(tool);
      expect(hints.readOnlyHint, tool.name).toBe(false);
      expect(hints.destructiveHint, tool.name).toBe(removers.includes(tool.name));
    }
  });

  it("arranges a speaker's stay: requested, assigned, changed, cancelled; a second assignment is refused", async () => {
    const speaker = await ok('create_speaker', { name: 'Grace Hopper', email: 'grace@example.org' });
    const stay = await ok('request_stay', {
      speakerId: speaker.speakerId,
      checkInDate: '2027-04-30',
      checkOutDate: '2027-05-02',
      idempotencyKey: 'grace-stay',
    });
    expect(stay).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', status: 'requested' });
    expect(
      await ok('request_stay', {
        speakerId: speaker.speakerId,
        checkInDate: '2027-04-30',
        checkOutDate: '2027-05-02',
        idempotencyKey: 'grace-stay',
      }),
    ).toEqual(stay);
    const assigned = await ok('assign_stay', { stayId: stay.stayId, hotel: 'Hotel Bristol', room: '12' });
    expect(assigned).toMatchObject({ status: 'assigned', hotel: 'Hotel Bristol' });
    const again = await refused('assign_stay', { stayId: stay.stayId, hotel: 'Elsewhere' });
    expect(again).toMatchObject({ code: 'statusNotAllowed', currentStatus: 'assigned' });
    expect(
      await refused('update_stay', { stayId: stay.stayId, room: '14', ifMatch: '"stale"' }),
    ).toMatchObject({
      code: 'preconditionFailed',
    });
    expect(await ok('update_stay', { stayId: stay.stayId, room: '14' })).toMatchObject({ room: '14' });
    expect(await ok('cancel_stay', { stayId: stay.stayId })).toMatchObject({ status: 'cancelled' });
    expect(await ok('get_stay', { stayId: stay.stayId })).toMatchObject({ status: 'cancelled', room: '14' });
    const mistake = await ok('request_stay', {
      firstName: 'Nobody',
      checkInDate: '2027-04-30',
      checkOutDate: '2027-05-01',
    });
    expect(await ok('delete_stay', { stayId: mistake.stayId })).toEqual({
      stayId: mistake.stayId,
      deleted: true,
    });
    expect((await ok('list_stays', {})).data.map((s: any) => s.stayId)).toEqual([stay.stayId]);
  });

  it("books a crew member's journey, changes and cancels it, and removes one booked by mistake", async () => {
    const crew = await ok('invite_crew_member', { name: 'Linus Berg', email: 'linus@example.org' });
    const trip = await ok('book_travel', {
      crewMemberId: crew.crewMemberId,
      mode: 'bus',
      from: 'Drammen',
      to: 'Oslo',
      departsUtc: '2027-05-01T05:00:00Z',
      arrivesUtc: '2027-05-01T06:00:00Z',
    });
    expect(trip).toMatchObject({ firstName: 'Linus', status: 'booked', reference: null });
    expect(await ok('update_travel', { travelId: trip.travelId, reference: 'BUS-9' })).toMatchObject({
      reference: 'BUS-9',
    });
    expect(await ok('cancel_travel', { travelId: trip.travelId })).toMatchObject({ status: 'cancelled' });
    expect(await refused('update_travel', { travelId: trip.travelId, to: 'Bergen' })).toMatchObject({
      code: 'statusNotAllowed',
      currentStatus: 'cancelled',
    });
    const mistake = await ok('book_travel', {
      firstName: 'Wrong',
      mode: 'car',
      from: 'A',
      to: 'B',
      departsUtc: '2027-05-01T05:00:00Z',
      arrivesUtc: '2027-05-01T06:00:00Z',
    });
    expect(await ok('delete_travel', { travelId: mistake.travelId })).toEqual({
      travelId: mistake.travelId,
      deleted: true,
    });
    expect((await ok('list_travel', {})).data.map((j: any) => [j.travelId, j.status])).toEqual([
      [trip.travelId, 'cancelled'],
    ]);
    expect(await ok('get_travel', { travelId: trip.travelId })).toMatchObject({ reference: 'BUS-9' });
  });

  it('submits, approves and pays a claim; pays only once; declines another', async () => {
    const crew = await ok('invite_crew_member', { name: 'Marit Dahl', email: 'marit@example.org' });
    const claim = await ok('submit_claim', {
      crewMemberId: crew.crewMemberId,
      category: 'meals',
      amount: 45.5,
      currency: 'NOK',
    });
    expect(claim).toMatchObject({ firstName: 'Marit', amount: 45.5, status: 'submitted' });
    expect(await refused('pay_claim', { claimId: claim.claimId })).toMatchObject({
      code: 'statusNotAllowed',
      currentStatus: 'submitted',
    });
    expect(await ok('approve_claim', { claimId: claim.claimId })).toMatchObject({ status: 'approved' });
    expect(await ok('pay_claim', { claimId: claim.claimId })).toMatchObject({ status: 'paid' });
    expect(await refused('pay_claim', { claimId: claim.claimId })).toMatchObject({ currentStatus: 'paid' });
    const other = await ok('submit_claim', {
      firstName: 'X',
      category: 'taxi',
      amount: 300,
      currency: 'NOK',
    });
    expect(await ok('decline_claim', { claimId: other.claimId })).toMatchObject({ status: 'rejected' });
    expect((await ok('list_claims', { status: 'paid' })).data.map((c: any) => c.claimId)).toEqual([
      claim.claimId,
    ]);
    expect(await ok('get_claim', { claimId: claim.claimId })).toMatchObject({ status: 'paid', amount: 45.5 });
  });

  it('meets the rules as tool errors: missingScope, moduleOff, demoWorkspace, and withholds names without people:read', async () => {
    const { key: narrow } = await t.key({
      workspaceId,
      scopes: ['attendees:read', 'finance:read'],
      expires: 'never',
    });
    const reader = await t.mcp(narrow, {}, '?toolsets=logistics,finance');
    try {
      const stay = await ok('request_stay', {
        firstName: 'Private',
        checkInDate: '2027-04-30',
        checkOutDate: '2027-05-01',
      });
      const seen = await callTool(reader, 'get_stay', { eventId, stayId: stay.stayId });
      expect(seen.data).toMatchObject({ firstName: null, personalData: 'withheld' });
      for (const [name, args, scope] of [
        [
          'request_stay',
          { firstName: 'X', checkInDate: '2027-04-30', checkOutDate: '2027-05-01' },
          'logistics:write',
        ],
        ['cancel_stay', { stayId: stay.stayId }, 'logistics:write'],
        ['submit_claim', { firstName: 'X', category: 'taxi', amount: 1, currency: 'EUR' }, 'finance:write'],
      ] as const)
        expect(await callTool(reader, name, { eventId, ...args })).toMatchObject({
          isError: true,
          data: { code: 'missingScope', scope },
        });
    } finally {
      await reader.close();
    }
    const other = await callTool(client, 'create_event', eventBody({ modules: { budget: false } }));
    expect(
      await callTool(client, 'submit_claim', {
        eventId: other.data.eventId,
        firstName: 'X',
        category: 'taxi',
        amount: 1,
        currency: 'EUR',
      }),
    ).toMatchObject({ isError: true, data: { code: 'moduleOff', module: 'budget' } });
    const demo = await t.mcp(t.server.demoKey, {}, '?toolsets=logistics');
    try {
      const summit = sampleIds(demoWorkspaceId).event('summit');
      expect(
        await callTool(demo, 'request_stay', {
          eventId: summit,
          firstName: 'Demo',
          checkInDate: '2027-04-30',
          checkOutDate: '2027-05-01',
        }),
      ).toMatchObject({ isError: true, data: { code: 'demoWorkspace' } });
      // The demonstration's sample stays are there to read.
      expect((await callTool(demo, 'list_stays', { eventId: summit })).data.data.length).toBeGreaterThan(0);
    } finally {
      await demo.close();
    }
  });
});
