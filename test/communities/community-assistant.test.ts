// An organiser's assistant runs a community through the MCP SDK's client alone: it creates a
// community, publishes it, makes an event its meetup, takes people in (one waits for approval and
// is approved, one is declined, one leaves), and reads the result back with the tools, as the
// REST answers have it. The tools are marked as extensions, with the safety hints of what they do.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { hintsOf } from '../support/mcp-hints';
import { callTool, outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let client: Client;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Assistant communities', false));
  ({ key } = await t.key({
    workspaceId,
    scopes: ['communities:write', 'events:write', 'people:read'],
    expires: 'never',
  }));
  client = await t.mcp(key, {}, '?toolsets=communities');
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const ok = async (name: string, args: Record<string, unknown>) => {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.data)}`).toBe(false);
  return result.data;
};

describe('an assistant running a community', () => {
  it('creates, publishes, links a meetup, takes members in and out, and reads it all back', async () => {
    const slug = `bergen-design-${Math.random().toString(36).slice(2, 7)}`;
    const community = await ok('create_community', {
      slug,
      name: 'Bergen Design Club',
      timeZone: 'Europe/Oslo',
      city: 'Bergen',
      joinPolicy: 'approval',
      idempotencyKey: `assistant-${slug}`,
    });
    expect(community).toMatchObject({ status: 'draft', joinPolicy: 'approval' });
    const retried = await ok('create_community', {
      slug,
      name: 'Bergen Design Club',
      timeZone: 'Europe/Oslo',
      city: 'Bergen',
      joinPolicy: 'approval',
      idempotencyKey: `assistant-${slug}`,
    });
    expect(retried).toEqual(community);
    const communityId = community.communityId;
    expect((await ok('set_community_status', { communityId, status: 'published' })).status).toBe('published');

    // A change chained on the entity tag the last answer carried; a stale one is refused.
    const read = await client.callTool({ name: 'get_community', arguments: { communityId } });
    const etag = (read._meta as { etag: string }).etag;
    const changed = await ok('update_community', {
      communityId,
      summary: 'Designers in Bergen.',
      ifMatch: etag,
    });
    expect(changed.summary).toBe('Designers in Bergen.');
    const stale = await callTool(client, 'update_community', { communityId, name: 'Lost', ifMatch: etag });
    expect(stale.isError).toBe(true);
    expect(stale.data).toMatchObject({ code: 'preconditionFailed', status: 412 });

    const event = await ok('create_event', eventBody({ name: 'Bergen Design Night' }));
    await ok('set_event_status', { eventId: event.eventId, status: 'published' });
    const link = await ok('set_event_community', { eventId: event.eventId, communityId });
    expect(link.community.name).toBe('Bergen Design Club');

    const ada = await ok('join_community', { communityId, name: 'Ada Berg', email: 'ada@example.com' });
    const bo = await ok('join_community', { communityId, name: 'Bo Strand', email: 'bo@example.com' });
    const cy = await ok('join_community', { communityId, name: 'Cy Holm', email: 'cy@example.com' });
    for (const m of [ada, bo, cy]) expect(m.status).toBe('pending');
    const twice = await callTool(client, 'join_community', {
      communityId,
      name: 'Ada',
      email: 'ADA@example.com',
    });
    expect(twice.isError).toBe(true);
    expect(twice.data).toMatchObject({ code: 'alreadyMember', status: 409, memberId: ada.memberId });

    expect((await ok('approve_community_member', { communityId, memberId: ada.memberId })).status).toBe(
      'active',
    );
    expect((await ok('approve_community_member', { communityId, memberId: cy.memberId })).status).toBe(
      'active',
    );
    expect((await ok('decline_community_member', { communityId, memberId: bo.memberId })).status).toBe(
      'left',
    );
    expect((await ok('leave_community', { communityId, memberId: cy.memberId })).status).toBe('left');
    const refused = await callTool(client, 'approve_community_member', {
      communityId,
      memberId: bo.memberId,
    });
    expect(refused.data).toMatchObject({ code: 'memberNotPending', status: 409 });

    const members = await ok('list_community_members', { communityId });
    const byName = Object.fromEntries(members.data.map((m: any) => [m.name, m.status]));
    expect(byName).toEqual({ 'Ada Berg': 'active', 'Bo Strand': 'left', 'Cy Holm': 'left' });
    const listed = (await ok('list_communities', {})).data.find((c: any) => c.communityId === communityId);
    expect(listed).toMatchObject({
      status: 'published',
      members: 1,
      pendingMembers: 0,
      upcomingMeetups: 1,
      nextMeetup: { name: 'Bergen Design Night' },
    });
    // The same answers as REST.
    const rest = await t.api(`/communities/${communityId}/members`, { key });
    expect(members.data).toEqual(rest.body.data);

    const sent = (await outbox(t, workspaceId)).map((m) => `${m.type} ${m.payload.data.member.name}`);
    expect(sent).toEqual(['member.joined Ada Berg', 'member.joined Cy Holm', 'member.left Cy Holm']);
  });

  it('marks each tool an extension with the hints of what it does', async () => {
    const listed = (await client.listTools()).tools;
    const tool = (name: string) => listed.find((x) => x.name === name)!;
    const kinds = {
      create_community: { destructiveHint: false, idempotentHint: false },
      update_community: { destructiveHint: false, idempotentHint: true },
      set_community_status: { destructiveHint: false, idempotentHint: true },
      join_community: { destructiveHint: false, idempotentHint: false },
      approve_community_member: { destructiveHint: false, idempotentHint: true },
      decline_community_member: { destructiveHint: false, idempotentHint: true },
      leave_community: { destructiveHint: true, idempotentHint: true },
      set_event_community: { destructiveHint: false, idempotentHint: true },
    };
    for (const [name, kind] of Object.entries(kinds)) {
      expect(tool(name).description, name).toMatch(/Tessera extension\. Needs communities:write\.$/);
      expect(hintsOf(tool(name)), name).toEqual({ readOnlyHint: false, openWorldHint: false, ...kind });
    }
    expect(Object.keys(tool('join_community').inputSchema.properties ?? {})).toContain('idempotencyKey');
    expect(Object.keys(tool('create_community').inputSchema.properties ?? {})).toContain('idempotencyKey');
    expect(Object.keys(tool('update_community').inputSchema.properties ?? {})).toContain('ifMatch');
  });
});
