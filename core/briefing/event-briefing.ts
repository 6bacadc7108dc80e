// An event's briefing: one page an assistant (or a person) reads before working on an event —
// the basics, where sales stand and how fast they go, the doors and what is on next. Each part
// comes from the operation that answers it, through invoke, so the caller's scopes and the
// event's modules decide what is shown; a part the caller may not see says why instead.
import { getCheckInSummary } from '../checkin';
import { getEvent, getEventStats } from '../events';
import { getSalesPace } from '../orders';
import type { Ctx } from '../platform/context';
import { invoke } from '../platform/pipeline/invoke';
import { isProblem } from '../platform/problems';
import { listSessions } from '../programme';

interface EventFacts {
  name: string;
  status: string;
  online: boolean;
  venue: { name: string; city: string | null } | null;
  timeZone: string;
  startsLocal: string;
  endsLocal: string;
  currency: string;
  languages: string[];
  modules: Record<string, boolean>;
}
interface Stats {
  registered: number;
  crew: number;
  awaiting: number;
  cancelled: number;
  checkedIn: number;
  capacity: number | null;
  remaining: number | null;
  revenue: number;
  ticketTypes: { name: string; capacity: number | null; taken: number; remaining: number | null }[];
}
interface Pace {
  lastSevenDays: { tickets: number; revenue: number };
  ticketsPerDay: number;
  daysToGo: number;
  projected: number;
  soldOutIn: number | null;
}
interface Doors {
  registered: number;
  checkedIn: number;
  doors: { name: string; kind: string; admitted: number; inside: number; capacity: number | null }[];
}
interface Sessions {
  data: { title: string; kind: string; startsUtc: string; startsLocal: string; endsLocal: string }[];
}

type Part<T> = { data: T } | { withheld: string };

/** One part: its data, or a sentence saying why the caller does not see it. */
async function part<T>(call: () => Promise<{ data: T }>): Promise<Part<T>> {
  try {
    return { data: (await call()).data };
  } catch (error) {
    if (!isProblem(error)) throw error;
    if (error.code === 'missingScope') return { withheld: `Not shown: needs ${error.extras.scope}.` };
    if (error.code === 'moduleOff')
      return { withheld: `Not shown: the ${error.extras.module} module is off.` };
    if (error.code === 'onlineEvent') return { withheld: 'None: an online event has no doors.' };
    throw error;
  }
}

const ofCapacity = (n: number | null) => (n === null ? 'no limit' : String(n));

function eventLines(e: EventFacts): string[] {
  const where = e.online ? 'online' : [e.venue?.name, e.venue?.city].filter(Boolean).join(', ');
  const off = Object.entries(e.modules)
    .filter(([, on]) => !on)
    .map(([m]) => m);
  return [
    `# ${e.name}`,
    '',
    `- Status: ${e.status}`,
    `- When: ${e.startsLocal.replace('T', ' ')} to ${e.endsLocal.replace('T', ' ')} (${e.timeZone})`,
    `- Where: ${where}`,
    `- Currency: ${e.currency}; languages: ${e.languages.join(', ')}`,
    `- Modules off: ${off.length ? off.join(', ') : 'none'}`,
  ];
}

function salesLines(stats: Part<Stats>, pace: Part<Pace>, currency: string): string[] {
  const lines = ['', '## Sales'];
  if ('withheld' in stats) return [...lines, stats.withheld];
  const s = stats.data;
  lines.push(
    `- Registered: ${s.registered} of ${ofCapacity(s.capacity)} (places left: ${ofCapacity(s.remaining)}); crew ${s.crew}`,
    `- Awaiting payment: ${s.awaiting}; cancelled: ${s.cancelled}; paid revenue ${s.revenue} ${currency}`,
  );
  for (const t of s.ticketTypes)
    lines.push(
      `  - ${t.name}: ${t.taken} taken of ${ofCapacity(t.capacity)} (left: ${ofCapacity(t.remaining)})`,
    );
  if ('withheld' in pace) return [...lines, `- Pace: ${pace.withheld}`];
  const p = pace.data;
  lines.push(
    `- Last seven days: ${p.lastSevenDays.tickets} tickets, ${p.lastSevenDays.revenue} ${currency} (${p.ticketsPerDay} a day)`,
    `- ${p.daysToGo} days to go; about ${p.projected} registered by then at this pace${p.soldOutIn === null ? '' : `; sold out in about ${p.soldOutIn} days`}`,
  );
  return lines;
}

function doorLines(doors: Part<Doors>): string[] {
  const lines = ['', '## Doors'];
  if ('withheld' in doors) return [...lines, doors.withheld];
  const d = doors.data;
  lines.push(`- Checked in: ${d.checkedIn} of ${d.registered}`);
  if (d.doors.length === 0) lines.push('- No doors yet (create_door makes one).');
  for (const door of d.doors)
    lines.push(
      `  - ${door.name} (${door.kind}): ${door.admitted} let in, ${door.inside} inside, capacity ${ofCapacity(door.capacity)}`,
    );
  return lines;
}

function programmeLines(sessions: Part<Sessions>, now: Date): string[] {
  const lines = ['', '## Next on the programme'];
  if ('withheld' in sessions) return [...lines, sessions.withheld];
  const next = sessions.data.data
    .filter((s) => new Date(s.startsUtc) >= now)
    .sort((a, b) => a.startsUtc.localeCompare(b.startsUtc))
    .slice(0, 5);
  if (next.length === 0) lines.push('- Nothing still to come.');
  for (const s of next)
    lines.push(`- ${s.startsLocal.replace('T', ' ')}–${s.endsLocal.slice(11)} ${s.title} (${s.kind})`);
  return lines;
}

/** The briefing as Markdown; eventNotFound (and the key's own refusals) as for get_event. */
export async function eventBriefing(ctx: Ctx, eventId: string): Promise<string> {
  const event: EventFacts = (await invoke(getEvent, ctx, { eventId })).data;
  const [stats, pace, doors, sessions] = await Promise.all([
    part<Stats>(() => invoke(getEventStats, ctx, { eventId })),
    part<Pace>(() => invoke(getSalesPace, ctx, { eventId })),
    part<Doors>(() => invoke(getCheckInSummary, ctx, { eventId })),
    part<Sessions>(() => invoke(listSessions, ctx, { eventId, limit: 500 })),
  ]);
  const now = ctx.clock.now();
  return [
    ...eventLines(event),
    ...salesLines(stats, pace, event.currency),
    ...doorLines(doors),
    ...programmeLines(sessions, now),
    '',
    `As of ${now.toISOString()}.`,
    '',
  ].join('\n');
}
