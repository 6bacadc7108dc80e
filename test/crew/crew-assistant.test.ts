// Crew and shifts run by an assistant through the MCP client alone (issue 25, item 4): it invites
// crew, adds shifts in the venue's local time, signs people up and off, meets a full shift and a
// clash as tool errors naming the shift, changes with ifMatch and removes, and reads the result
// with list_shifts and list_crew. The tools are marked as extensions and annotated by effect.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAssistantOnEvent, startAssistantOnEvent, toolOnEvent } from '../support/assistant-on-event';
import { hintsOf } from '../support/mcp-hints';
import type { TestServer } from '../support/server';

let t: TestServer;
let client: Client;
let eventId: string;

const writeTools = [
  'invite_crew_member',
  'update_crew_member',
  'remove_crew_member',
  'create_shift',
  'update_shift',
  'delete_shift',
  'sign_up_for_shift',
  'drop_shift',
];

beforeAll(async () => {
  ({ t, client, eventId } = await startAssistantOnEvent('Crew assistant', 'crew'));
});
afterAll(() => closeAssistantOnEvent({ t, client }));

const ok = (name: string, args: Record<string, unknown>) => toolOnEvent(client, eventId, name, args);
const refused = (name: string, args: Record<string, unknown>) =>
  toolOnEvent(client, eventId, name, args, true);

describe('an assistant runs the crew', () => {
  it('lists the crew and shift tools as extensions, destructive where they remove', async () => {
    const tools = (await client.listTools()).tools.filter((x) => writeTools.includes(x.name));
    expect(tools.map((x) => x.name).sort()).toEqual([...writeTools].sort());
    for (const tool of tools) {
      expect(tool.description, tool.name).toContain('Tessera extension.');
      const hints = hintsOf(tool);
      expect(hints.readOnlyHint, tool.name).toBe(false);
      const removes = ['remove_crew_member', 'delete_shift', 'drop_shift'].includes(tool.name);
      expect(hints.destructiveHint, tool.name).toBe(removes);
    }
  });

  it('invites, adds shifts, signs up, meets full and clashing shifts, drops, changes and removes', async () => {
    const ada = await ok('invite_crew_member', { name: 'Ada', email: 'ada@example.org', roles: ['door'] });
    const bo = await ok('invite_crew_member', { name: 'Bo', roles: ['greeter'] });
    const door = await ok('create_shift', {
      role: 'door',
      place: { kind: 'area', name: 'Entrance hall' },
      startsLocal: '2027-05-01T08:00',
      endsLocal: '2027-05-01T12:00',
      needed: 1,
      idempotencyKey: 'door-shift',
    });
    expect(door).toMatchObject({ startsLocal: '2027-05-01T08:00', timeZone: 'Europe/Oslo', open: 1 });
    // The same idempotency key answers the first shift again.
    expect(
      await ok('create_shift', {
        role: 'door',
        place: { kind: 'area', name: 'Entrance hall' },
        startsLocal: '2027-05-01T08:00',
        endsLocal: '2027-05-01T12:00',
        needed: 1,
        idempotencyKey: 'door-shift',
      }),
    ).toEqual(door);
    const greet = await ok('create_shift', {
      role: 'greeter',
      place: { kind: 'other', name: 'Station' },
      startsLocal: '2027-05-01T10:00',
      endsLocal: '2027-05-01T11:00',
      needed: 2,
    });

    expect(
      await ok('sign_up_for_shift', { shiftId: door.shiftId, crewMemberId: ada.crewMemberId }),
    ).toMatchObject({
      assigned: 1,
      open: 0,
      crewMemberIds: [ada.crewMemberId],
    });
    const full = await refused('sign_up_for_shift', { shiftId: door.shiftId, crewMemberId: bo.crewMemberId });
    expect(full).toMatchObject({ code: 'shiftFull', status: 409, shiftId: door.shiftId });
    const clash = await refused('sign_up_for_shift', {
      shiftId: greet.shiftId,
      crewMemberId: ada.crewMemberId,
    });
    expect(clash).toMatchObject({ code: 'shiftClash', status: 409, shiftId: door.shiftId });
    await ok('sign_up_for_shift', { shiftId: greet.shiftId, crewMemberId: bo.crewMemberId });

    // needed cannot go below the people on it.
    const lower = await refused('update_shift', { shiftId: door.shiftId, needed: 0 });
    expect(lower).toMatchObject({ code: 'capacityBelowTaken', taken: 1 });
    expect(await ok('drop_shift', { shiftId: door.shiftId, crewMemberId: ada.crewMemberId })).toEqual({
      shiftId: door.shiftId,
      crewMemberId: ada.crewMemberId,
      deleted: true,
    });
    expect(await ok('update_shift', { shiftId: door.shiftId, needed: 0 })).toMatchObject({
      needed: 0,
      open: 0,
    });

    // A stale ifMatch is refused; the crew member stays as they were.
    const stale = await refused('update_crew_member', {
      crewMemberId: bo.crewMemberId,
      roles: ['swag'],
      ifMatch: '"stale"',
    });
    expect(stale.code).toBe('preconditionFailed');
    expect(await ok('update_crew_member', { crewMemberId: bo.crewMemberId, phone: '+47 1' })).toMatchObject({
      phone: '+47 1',
      roles: ['greeter'],
      shiftIds: [greet.shiftId],
    });

    expect(await ok('delete_shift', { shiftId: greet.shiftId })).toEqual({
      shiftId: greet.shiftId,
      deleted: true,
    });
    expect(await ok('remove_crew_member', { crewMemberId: ada.crewMemberId })).toEqual({
      crewMemberId: ada.crewMemberId,
      deleted: true,
    });

    const shifts = await ok('list_shifts', {});
    expect(shifts.data.map((s: any) => [s.shiftId, s.crewMemberIds])).toEqual([[door.shiftId, []]]);
    const crew = await ok('list_crew', {});
    expect(crew.data.map((m: any) => [m.name, m.shiftIds])).toEqual([['Bo', []]]);
  });
});
