// The programme through a real MCP client: the same data as REST (one operation behind both),
// and a room clash answered as a tool error carrying code clash and the sessions in the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { programmeIds } from './programme-support';

let t: TestServer;
let key: string;
let ids: ReturnType<typeof programmeIds>;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Programme MCP workspace', true);
  ({ key } = await t.key({ workspaceId, scopes: ['program:write', 'people:read'] }));
  ids = programmeIds(workspaceId);
});
afterAll(async () => t.close());

describe('programme tools', () => {
  it('list_sessions answers the same page as GET /events/{eventId}/sessions', async () => {
    const client = await t.mcp(key, {}, '?toolsets=programme');
    const tool = await callTool(client, 'list_sessions', { eventId: ids.event('summit'), limit: 5 });
    const rest = await t.api(`/events/${ids.event('summit')}/sessions?limit=5`, { key });
    expect(tool.isError).toBe(false);
    expect(tool.data.data).toEqual(rest.body.data);
    expect(tool.data.hasMore).toBe(true);
    const next = await callTool(client, 'list_sessions', {
      eventId: ids.event('summit'),
      limit: 5,
      cursor: tool.data.nextCursor,
    });
    const restNext = await t.api(
      `/events/${ids.event('summit')}/sessions?limit=5&cursor=${encodeURIComponent(rest.body.nextCursor)}`,
      { key },
    );
    expect(next.data.data).toEqual(restNext.body.data);
    await client.close();
  });

  it('create_session adds a session that REST then reads unchanged; list_rooms, list_tracks and list_speakers match REST', async () => {
    const client = await t.mcp(key, {}, '?toolsets=programme');
    const eventId = ids.event('meetup');
    const made = await callTool(client, 'create_session', {
      eventId,
      title: 'Lightning talks',
      kind: 'other',
      roomId: ids.room('meetup', 'hall'),
      startsLocal: '2031-03-01T19:00',
      endsLocal: '2031-03-01T19:30',
      speakerIds: [ids.speaker('meetup', 'hana'), ids.speaker('meetup', 'yuki')],
    });
    expect(made.isError).toBe(false);
    expect(made.data).toMatchObject({
      title: 'Lightning talks',
      timeZone: 'Asia/Tokyo',
      startsUtc: '2031-03-01T10:00:00.000Z',
      startsLocal: '2031-03-01T19:00',
    });
    const rest = await t.api(`/events/${eventId}/sessions/${made.data.sessionId}`, { key });
    expect(rest.body).toEqual(made.data);
    const got = await callTool(client, 'get_session', { eventId, sessionId: made.data.sessionId });
    expect(got.data).toEqual(rest.body);
    for (const [tool, path] of [
      ['list_rooms', 'rooms'],
      ['list_tracks', 'tracks'],
      ['list_speakers', 'speakers'],
    ] as const) {
      const viaTool = await callTool(client, tool, { eventId: ids.event('summit') });
      const viaRest = await t.api(`/events/${ids.event('summit')}/${path}`, { key });
      expect(viaTool.data, tool).toEqual(viaRest.body);
    }
    await client.close();
  });

  it('answers a clash as a tool error with code clash naming the sessions, and places it with allowClash', async () => {
    const client = await t.mcp(key, {}, '?toolsets=programme');
    const eventId = ids.event('summit');
    const opening = (await t.api(`/events/${eventId}/sessions/${ids.session('summit', 'opening')}`, { key }))
      .body;
    const args = {
      eventId,
      title: 'Double-booked',
      roomId: opening.roomId,
      startsUtc: opening.startsUtc,
      endsUtc: opening.endsUtc,
    };
    const clash = await callTool(client, 'create_session', args);
    expect(clash.isError).toBe(true);
    expect(clash.data).toMatchObject({ code: 'clash', status: 409 });
    expect(clash.data.sessions).toEqual([
      {
        sessionId: opening.sessionId,
        title: opening.title,
        startsUtc: opening.startsUtc,
        endsUtc: opening.endsUtc,
      },
    ]);
    const moved = await callTool(client, 'update_session', {
      eventId,
      sessionId: ids.session('summit', 'roadmaps'),
      startsUtc: opening.startsUtc,
    });
    expect(moved.isError).toBe(true);
    expect(moved.data.code).toBe('clash');
    const forced = await callTool(client, 'create_session', { ...args, allowClash: true });
    expect(forced.isError).toBe(false);
    expect(forced.data.roomId).toBe(opening.roomId);
    await client.close();
  });
});
