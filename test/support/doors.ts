// Set-up for the door suites: an in-person event made through the API, with ticket types, an
// add-on and doors added to the database as the organiser's app would (the API makes none of
// these), and people registered through the API.

import { newId } from '../../core/platform/ids';
import { nextChangeSeq } from '../../db/sequence';
import type { DoorKind, Flag } from '../../db/values';
import { eventBody } from './fixtures';
import type { TestServer } from './server';

export interface DoorEvent {
  eventId: string;
  key: string;
  general: string;
  vip: string;
  crew: string;
  workshop: string;
  doors: { main: string; side: string; session: string; vip: string; small: string };
  /** Registers n people with a ticket type; answers their attendee ids. */
  register(ticketTypeId: string, n?: number): Promise<string[]>;
}

export async function seedDoorEvent(t: TestServer, workspaceId: string, key: string): Promise<DoorEvent> {
  const db = t.server.services.db;
  const created = await t.api('/events', {
    key,
    method: 'POST',
    body: eventBody({ startsLocal: '2030-05-01T09:00', endsLocal: '2030-05-02T17:00' }),
  });
  const eventId = created.body.eventId as string;
  const now = new Date().toISOString();
  const stamp = async () => ({ created_utc: now, updated_utc: now, change_seq: await nextChangeSeq(db) });
  const workshop = newId();
  await db
    .insertInto('add_ons')
    .values({
      id: workshop,
      workspace_id: workspaceId,
      event_id: eventId,
      name: 'Workshop',
      description: null,
      price_minor: 0,
      vat_rate: 0,
      capacity: null,
      taken: 0,
      sort_order: 1,
      ...(await stamp()),
    })
    .execute();
  const type = async (name: string, extra: { crew?: Flag; includes?: string[] } = {}) => {
    const id = newId();
    await db
      .insertInto('ticket_types')
      .values({
        id,
        workspace_id: workspaceId,
        event_id: eventId,
        name,
        description: '',
        price_minor: 0,
        vat_rate: 0,
        capacity: null,
        taken: 0,
        max_per_order: 50,
        visibility: 'public' as const,
        access_code: null,
        requires_approval: 0,
        crew: extra.crew ?? 0,
        sales_start_utc: null,
        sales_end_utc: null,
        included_add_on_ids: JSON.stringify(extra.includes ?? []),
        sort_order: 1,
        ...(await stamp()),
      })
      .execute();
    return id;
  };
  const general = await type('General');
  const vip = await type('VIP', { includes: [workshop] });
  const crew = await type('Crew', { crew: 1 as const });
  let order = 0;
  const door = async (
    name: string,
    kind: DoorKind,
    extra: { main?: Flag; capacity?: number; reentry?: Flag; types?: string[]; addOns?: string[] } = {},
  ) => {
    const id = newId();
    order += 1;
    await db
      .insertInto('doors')
      .values({
        id,
        workspace_id: workspaceId,
        event_id: eventId,
        name,
        kind,
        main: extra.main ?? 0,
        session_id: null,
        capacity: extra.capacity ?? null,
        inside: 0,
        reentry: extra.reentry ?? 1,
        ticket_type_ids: JSON.stringify(extra.types ?? []),
        add_on_ids: JSON.stringify(extra.addOns ?? []),
        sort_order: order,
        ...(await stamp()),
      })
      .execute();
    return id;
  };
  const doors = {
    main: await door('Main entrance', 'entrance', { main: 1 }),
    side: await door('Side entrance', 'entrance'),
    session: await door('Workshop door', 'session', { addOns: [workshop] }),
    vip: await door('VIP lounge', 'area', { reentry: 0, types: [vip] }),
    small: await door('Small room', 'area', { capacity: 3 }),
  };
  return {
    eventId,
    key,
    general,
    vip,
    crew,
    workshop,
    doors,
    async register(ticketTypeId, n = 1) {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 50) {
        const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) => ({
          ticketTypeId,
          firstName: `Guest${i + j}`,
          lastName: 'Door',
          email: `guest.${i + j}.${Math.random().toString(36).slice(2, 8)}@example.org`,
        }));
        const res = await t.api(`/events/${eventId}/attendees`, {
          key,
          method: 'POST',
          body: { attendees: batch },
        });
        if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
        ids.push(...res.body.attendees.map((a: { attendeeId: string }) => a.attendeeId));
      }
      return ids;
    },
  };
}
