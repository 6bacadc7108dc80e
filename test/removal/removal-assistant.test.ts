// An assistant removes what it made through MCP alone (issue 26, item 5): a draft event's
// programme, doors, ticket types, add-ons and discount codes, the event itself and a community;
// each refusal (inUse, eventPublished) comes back as a tool error naming what depends; a stale
// ifMatch on a removal answers preconditionFailed; a retired ticket type stays in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { callTool, person } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Removal by assistant', false);
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

describe('an assistant removes what it made through MCP alone', () => {
  it('sets up a draft event, is refused while things depend, removes or retires each, then the event', async () => {
    const client = await t.mcp(key, {}, '?toolsets=all');
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r = await callTool(client, name, args);
      expect(r.isError, `${name} ${JSON.stringify(r.data)}`).toBe(false);
      return r.data;
    };
    const refused = async (name: string, args: Record<string, unknown>, code: string) => {
      const r = await callTool(client, name, args);
      expect(r, name).toMatchObject({ isError: true, data: { code } });
      return r.data;
    };
    const { eventId } = await ok('create_event', { ...eventBody(), idempotencyKey: 'ev-1' });
    const { roomId } = await ok('create_room', { eventId, name: 'Hall', idempotencyKey: 'room-1' });
    const { trackId } = await ok('create_track', {
      eventId,
      name: 'AI',
      colour: '#445566',
      idempotencyKey: 't-1',
    });
    const { speakerId } = await ok('create_speaker', { eventId, name: 'Grace', idempotencyKey: 's-1' });
    const session = await ok('create_session', {
      eventId,
      title: 'Opening',
      startsLocal: '2027-05-01T09:30',
      endsLocal: '2027-05-01T10:00',
      roomId,
      trackId,
      speakerIds: [speakerId],
      idempotencyKey: 'sess-1',
    });
    const inUse = await refused('delete_room', { eventId, roomId }, 'inUse');
    expect(inUse.dependents).toEqual([{ resource: 'session', count: 1, ids: [session.sessionId] }]);
    await refused('delete_track', { eventId, trackId }, 'inUse');
    await refused('delete_speaker', { eventId, speakerId }, 'inUse');
    await refused(
      'delete_session',
      { eventId, sessionId: session.sessionId, ifMatch: '"stale"' },
      'preconditionFailed',
    );
    expect(await ok('delete_session', { eventId, sessionId: session.sessionId })).toEqual({
      sessionId: session.sessionId,
      deleted: true,
    });
    expect(await ok('delete_room', { eventId, roomId })).toEqual({ roomId, deleted: true });
    expect(await ok('delete_track', { eventId, trackId })).toEqual({ trackId, deleted: true });
    expect(await ok('delete_speaker', { eventId, speakerId })).toEqual({ speakerId, deleted: true });
    await refused('delete_room', { eventId, roomId }, 'notFound');

    const { ticketTypeId } = await ok('create_ticket_type', {
      eventId,
      name: 'Day pass',
      idempotencyKey: 'tt-1',
    });
    const { addOnId } = await ok('create_add_on', { eventId, name: 'Lunch', idempotencyKey: 'ao-1' });
    const { doorId } = await ok('create_door', { eventId, name: 'Gate', idempotencyKey: 'd-1' });
    const code = await ok('create_discount_code', {
      eventId,
      code: 'EARLY',
      percent: 20,
      idempotencyKey: 'dc-1',
    });
    const off = await ok('update_discount_code', {
      eventId,
      discountCodeId: code.discountCodeId,
      active: false,
      maxUses: 10,
    });
    expect(off).toMatchObject({ active: false, maxUses: 10, percent: 20 });
    expect(await ok('delete_discount_code', { eventId, discountCodeId: code.discountCodeId })).toEqual({
      discountCodeId: code.discountCodeId,
      deleted: true,
    });
    expect(await ok('delete_add_on', { eventId, addOnId })).toEqual({ addOnId, deleted: true });
    expect(await ok('delete_door', { eventId, doorId })).toEqual({ doorId, deleted: true });

    await ok('register_attendees', { eventId, attendees: [person(ticketTypeId)], idempotencyKey: 'reg-1' });
    const sold = await refused('delete_ticket_type', { eventId, ticketTypeId }, 'inUse');
    expect(sold.dependents).toEqual([{ resource: 'ticket', count: 1, ids: [expect.any(String)] }]);
    const retired = await ok('update_ticket_type', { eventId, ticketTypeId, retired: true });
    expect(retired.retiredUtc).toMatch(/Z$/);
    expect((await ok('list_ticket_types', { eventId })).data[0]).toMatchObject({
      ticketTypeId,
      retiredUtc: retired.retiredUtc,
    });

    const orders = await refused('delete_event', { eventId }, 'inUse');
    expect(orders.dependents[0]).toMatchObject({ resource: 'order', count: 1 });

    const draft = (await ok('create_event', { ...eventBody(), idempotencyKey: 'ev-2' })).eventId;
    await ok('create_room', { eventId: draft, name: 'Side room', idempotencyKey: 'room-2' });
    await ok('set_event_status', { eventId: draft, status: 'published' });
    await refused('delete_event', { eventId: draft }, 'eventPublished');
    await ok('set_event_status', { eventId: draft, status: 'draft' });
    expect(await ok('delete_event', { eventId: draft })).toEqual({ eventId: draft, deleted: true });
    await refused('get_event', { eventId: draft }, 'eventNotFound');

    const community = await ok('create_community', {
      name: 'Meetup crew',
      slug: `meetup-crew-${Date.now()}`,
      timeZone: 'Europe/Oslo',
      idempotencyKey: 'c-1',
    });
    expect(await ok('delete_community', { communityId: community.communityId })).toEqual({
      communityId: community.communityId,
      deleted: true,
    });
  });
});
