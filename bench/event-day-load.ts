// The event-day row's clients, each a loop that calls, waits its pace, and calls again until the
// run ends: door scanners, registration clients, integrations pulling by cursor and then polling
// with updatedSince, and an assistant calling MCP tools. Every call is timed under its kind, with
// the answer's status counted (a refusal other than a rate limit's 429 is a failure of the run).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, request, fetch as undiciFetch } from 'undici';

/** How each kind of client paces itself: the load of a busy door hour, not a flood. */
export const pace = {
  doors: 16,
  /** Each door scans a person, then the next one this long after the answer. */
  scanEveryMs: 200,
  registrationClients: 4,
  /** A call of 1 to 50 people (25.5 on average), then a pause. */
  registrationEveryMs: 500,
  integrations: 4,
  /** Caught up, an integration asks again for what changed after this pause. */
  pollEveryMs: 1000,
  /** The assistant's pause between tool calls. */
  assistantEveryMs: 250,
};

export type Kind = 'scan' | 'registration' | 'attendee sync page' | 'check-in sync page' | 'MCP tool call';

export class Tally {
  readonly latencies = new Map<Kind, number[]>();
  /** Answers per kind and status. */
  readonly statuses = new Map<Kind, Map<number, number>>();

  note(kind: Kind, ms: number, status: number): void {
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
    const byStatus = this.statuses.get(kind) ?? new Map<number, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.statuses.set(kind, byStatus);
  }

  /** Answers of a kind that were refused, a rate limit's 429 apart. */
  failures(kind: Kind): number {
    let n = 0;
    for (const [status, count] of this.statuses.get(kind) ?? [])
      if (status >= 400 && status !== 429) n += count;
    return n;
  }

  /** The refusals' statuses, e.g. "400 ×3". */
  refusedStatuses(kind: Kind): string {
    return [...(this.statuses.get(kind) ?? [])]
      .filter(([status]) => status >= 400 && status !== 429)
      .map(([status, n]) => `${status} ×${n}`)
      .join(', ');
  }

  rateLimited(kind: Kind): number {
    return this.statuses.get(kind)?.get(429) ?? 0;
  }
}

export interface Target {
  origins: string[];
  ca: string;
  key: string;
  doorEventId: string;
  doorAttendeeIds: string[];
  syncEventId: string;
  ticketTypeId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class EventDayLoad {
  readonly tally = new Tally();
  /** The calls of the warm-up: the same load on a server just started, kept apart. */
  readonly warmupTally = new Tally();
  private countFrom = 0;
  private readonly agent: Agent;
  private readonly auth: Record<string, string>;
  private nextDoorAttendee = 0;
  private readonly scanned: string[] = [];
  private stopAt = 0;

  constructor(private readonly target: Target) {
    this.agent = new Agent({
      connect: { ca: target.ca, servername: 'localhost' },
      connections: 64,
      keepAliveTimeout: 30_000,
    });
    this.auth = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
  }

  private origin(client: number): string {
    return this.target.origins[client % this.target.origins.length]!;
  }

  private async call(
    kind: Kind,
    url: string,
    method: 'GET' | 'POST',
    body?: string,
  ): Promise<{ status: number; text: string }> {
    const started = performance.now();
    const counted = this.counted();
    const res = await request(url, { method, headers: this.auth, body, dispatcher: this.agent });
    const text = await res.body.text();
    counted.note(kind, performance.now() - started, res.statusCode);
    return { status: res.statusCode, text };
  }

  /** Where a call starting now is counted: the warm-up's tally until the measured run begins. */
  private counted(): Tally {
    return Date.now() < this.countFrom ? this.warmupTally : this.tally;
  }

  private running(): boolean {
    return Date.now() < this.stopAt;
  }

  /** A door: mostly people arriving, one scan in ten someone already in (a re-entry or a repeat). */
  private async door(n: number): Promise<void> {
    const { doorEventId, doorAttendeeIds } = this.target;
    for (let i = 0; this.running(); i += 1) {
      const again = i % 10 === 9 && this.scanned.length > 0;
      const id = again
        ? this.scanned[Math.floor(Math.random() * this.scanned.length)]!
        : doorAttendeeIds[this.nextDoorAttendee++ % doorAttendeeIds.length]!;
      if (!again) this.scanned.push(id);
      await this.call(
        'scan',
        `${this.origin(n)}/api/v1/events/${doorEventId}/attendees/${id}/check-in`,
        'POST',
      );
      await sleep(pace.scanEveryMs);
    }
  }

  private async registrations(n: number): Promise<void> {
    const { syncEventId, ticketTypeId } = this.target;
    for (let call = 0; this.running(); call += 1) {
      const people = 1 + Math.floor(Math.random() * 50);
      const body = JSON.stringify({
        attendees: Array.from({ length: people }, (_, i) => ({
          ticketTypeId,
          firstName: 'Day',
          lastName: `Guest ${n}-${call}-${i}`,
          email: `day.guest.${n}.${call}.${i}@example.com`,
        })),
      });
      await this.call(
        'registration',
        `${this.origin(n)}/api/v1/events/${syncEventId}/attendees`,
        'POST',
        body,
      );
      await sleep(pace.registrationEveryMs);
    }
  }

  /** Pulls a list whole by cursor, then asks for what changed since each round began. */
  private async integration(n: number, kind: Kind, list: string): Promise<void> {
    let since: string | null = null;
    while (this.running()) {
      const roundStarted = new Date(Date.now() - 2000).toISOString();
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: '500' });
        // A cursor carries on the list it was given for: the same filter goes with it.
        if (since) query.set('updatedSince', since);
        if (cursor) query.set('cursor', cursor);
        const { status, text } = await this.call(kind, `${this.origin(n)}/api/v1${list}?${query}`, 'GET');
        if (status !== 200) break;
        cursor = (JSON.parse(text) as { nextCursor: string | null }).nextCursor;
      } while (cursor && this.running());
      since = roundStarted;
      await sleep(pace.pollEveryMs);
    }
  }

  private async assistant(): Promise<void> {
    const agent = this.agent;
    const client = new Client({ name: 'event-day-assistant', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${this.origin(0)}/mcp`), {
      fetch: ((input: never, init?: object) =>
        undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof fetch,
      requestInit: { headers: { authorization: this.auth.authorization! } },
    });
    await client.connect(transport);
    const { doorEventId, syncEventId } = this.target;
    const calls: [string, Record<string, unknown>][] = [
      ['get_event_stats', { eventId: syncEventId }],
      ['get_check_in_summary', { eventId: doorEventId }],
      ['search_attendees', { eventId: syncEventId, q: 'Guest 1-1', limit: 10 }],
      ['list_attendees', { eventId: doorEventId, limit: 20 }],
    ];
    try {
      for (let i = 0; this.running(); i += 1) {
        const [name, args] = calls[i % calls.length]!;
        const started = performance.now();
        const counted = this.counted();
        const result = await client.callTool({ name, arguments: args });
        counted.note('MCP tool call', performance.now() - started, result.isError ? 500 : 200);
        await sleep(pace.assistantEveryMs);
      }
    } finally {
      await client.close();
    }
  }

  /**
   * Runs every client for `warmupSeconds` and then `seconds` more; resolves when the last one has
   * stopped. Calls that start in the warm-up are counted apart (a server just started compiles
   * each path on its first calls, all clients arriving at once).
   */
  async run(seconds: number, warmupSeconds: number): Promise<void> {
    this.countFrom = Date.now() + warmupSeconds * 1000;
    this.stopAt = this.countFrom + seconds * 1000;
    const { doorEventId, syncEventId } = this.target;
    const half = pace.integrations / 2;
    await Promise.all([
      ...Array.from({ length: pace.doors }, (_, n) => this.door(n)),
      ...Array.from({ length: pace.registrationClients }, (_, n) => this.registrations(n)),
      ...Array.from({ length: half }, (_, n) =>
        this.integration(n, 'attendee sync page', `/events/${syncEventId}/attendees`),
      ),
      ...Array.from({ length: pace.integrations - half }, (_, n) =>
        this.integration(n + half, 'check-in sync page', `/events/${doorEventId}/check-ins`),
      ),
      this.assistant(),
    ]);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
