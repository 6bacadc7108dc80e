// Registration through the API as an integration sends it: calls of 50 attendees each (the most one
// call takes) to one event, from 4 clients over HTTPS keep-alive; attendees registered a second.
import { type LoadResult, runLoad } from './load';

export const attendeesPerCall = 50;

/** One call's body: 50 people on one ticket type. */
export function registrationBody(ticketTypeId: string): string {
  return JSON.stringify({
    attendees: Array.from({ length: attendeesPerCall }, (_, i) => ({
      ticketTypeId,
      firstName: 'Bench',
      lastName: `Person ${i}`,
      email: `bench.person.${i}@example.com`,
    })),
  });
}

export interface RegistrationResult extends LoadResult {
  attendeesPerSecond: number;
}

export async function measureRegistration(options: {
  origin: string;
  ca: string;
  key: string;
  eventId: string;
  ticketTypeId: string;
  calls: number;
}): Promise<RegistrationResult> {
  const body = registrationBody(options.ticketTypeId);
  const load = await runLoad(
    options.origin,
    options.ca,
    4,
    Array(options.calls).fill(`/api/v1/events/${options.eventId}/attendees`),
    {
      method: 'POST',
      headers: { authorization: `Bearer ${options.key}` },
      body,
      ok: (status) => status === 201,
    },
  );
  return { ...load, attendeesPerSecond: load.perSecond * attendeesPerCall };
}
