// Every figure of the scale row for one size: the first start of `tessera serve` on the imported
// folder, then, with that server running, the per-request timings and GET /me beside slow calls.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadTls } from '../src/tls';
import { benchSecretKey, stopAll } from './processes';
import { Client, meBeside, type Timing, timeCalls } from './scale-calls';
import type { ScaleFolder } from './scale-folder';
import { serveArgs, startEnvironment } from './serve-args';
import { firstAnswer, residentMiB } from './startup';

/** The search terms: a surname prefix, an email fragment, a company and a term nothing matches. */
export const searchTerms = {
  surname: 'Last1',
  email: 'person123',
  company: 'Example',
  none: 'zqxjvw',
} as const;

export interface SizeFigures {
  attendees: number;
  importSeconds: number;
  importPeakMiB: number;
  bytesPerAttendee: number;
  firstStartMs: number;
  serverMiB: number;
  timings: Record<string, Timing>;
  meBeside: Record<string, Timing & { slowMs: number }>;
}

interface Page {
  data: { attendeeId: string }[];
  nextCursor: string | null;
}

export async function measureSize(
  folder: ScaleFolder,
  attendees: number,
  port: number,
): Promise<SizeFigures> {
  const tls = await loadTls(folder.dataDir);
  const ca = readFileSync(tls.certFile, 'utf8');
  const origin = `https://localhost:${port}`;
  const started = performance.now();
  const server = spawn(process.execPath, serveArgs(folder.dataDir, port), {
    env: {
      ...process.env,
      ...startEnvironment(),
      NODE_OPTIONS: '',
      TESSERA_RATE_LIMIT: '60000000',
      TESSERA_LOG_LEVEL: 'silent',
      TESSERA_SECRET_KEY: benchSecretKey,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const client = new Client(origin, ca, folder.key);
  const me = new Client(origin, ca, folder.key);
  try {
    const firstStartMs = await firstAnswer(origin, ca, folder.key, started);
    const events = await client.json<{ data: { eventId: string; slug: string }[] }>(`/events?limit=500`);
    const eventId = events.data.find((e) => e.slug === 'scale')?.eventId;
    if (!eventId)
      throw new Error(`the imported event is not in the list: ${JSON.stringify(events).slice(0, 1500)}`);
    const base = `/events/${eventId}`;
    // The import makes no door; the check-ins go through a main entrance.
    await client.call(`${base}/doors`, 'POST', JSON.stringify({ name: 'Main entrance', main: true }), 201);

    // Page 50 and beyond of the list, 100 a page, oldest change first; the pages give fresh attendees.
    const cursors: string[] = [];
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 52; page += 1) {
      const got: Page = await client.json<Page>(
        `${base}/attendees?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      ids.push(...got.data.map((a) => a.attendeeId));
      if (!got.nextCursor) throw new Error(`the list ended at page ${page}`);
      cursor = got.nextCursor;
      if (page >= 49) cursors.push(cursor);
    }

    // A change after the import: 10 registrations; updatedSince asks for what came from just before.
    const ticketTypes = await client.json<{ data: { ticketTypeId: string }[] }>(`${base}/ticket-types`);
    const since = new Date(Date.now() - 1).toISOString();
    // Ten: the imported ticket type's most in one order.
    const ticketTypeId = ticketTypes.data[0]!.ticketTypeId;
    const people = Array.from({ length: 10 }, (_, i) => ({
      ticketTypeId,
      firstName: 'Recent',
      lastName: `Person ${i}`,
      email: `recent.person.${i}@example.com`,
    }));
    await client.call(`${base}/attendees`, 'POST', JSON.stringify({ attendees: people }), 201);

    const timings: Record<string, Timing> = {};
    for (const [name, term] of Object.entries(searchTerms)) {
      timings[`search ${name}`] = await timeCalls(() => client.call(`${base}/attendees/search?q=${term}`));
    }
    // A whole address, the list's e-mail filter (an integration looking a buyer up): one ticket.
    timings['email filter'] = await timeCalls(() =>
      client.call(`${base}/attendees?email=${encodeURIComponent(people[3]!.email)}`),
    );
    timings.statistics = await timeCalls(() => client.call(`${base}/stats`));
    timings['check-in summary'] = await timeCalls(() => client.call(`${base}/check-ins/summary`));
    timings.updatedSince = await timeCalls(() =>
      client.call(`${base}/attendees?limit=100&updatedSince=${encodeURIComponent(since)}`),
    );
    timings['deep cursor page'] = await timeCalls((i) =>
      client.call(`${base}/attendees?limit=100&cursor=${encodeURIComponent(cursors[i % cursors.length]!)}`),
    );
    // Each call checks in an attendee never scanned before (from page 1 on).
    timings['door check-in'] = await timeCalls(async (i) => {
      const id = ids[i];
      if (!id) throw new Error('out of fresh attendees');
      const answer = await client.call(`${base}/attendees/${id}/check-in`, 'POST', '{}');
      if (!answer.includes('"result":"welcome"')) throw new Error(`a check-in was not a welcome: ${answer}`);
    });

    const beside: SizeFigures['meBeside'] = {};
    beside.search = await meBeside(me, () => client.call(`${base}/attendees/search?q=${searchTerms.none}`));
    beside.statistics = await meBeside(me, () => client.call(`${base}/stats`));
    beside['CSV export'] = await meBeside(me, () => client.call(`${base}/exports/attendees?format=csv`));

    return {
      attendees,
      importSeconds: folder.importSeconds,
      importPeakMiB: folder.importPeakMiB,
      bytesPerAttendee: folder.bytesPerAttendee,
      firstStartMs,
      serverMiB: residentMiB(server.pid!),
      timings,
      meBeside: beside,
    };
  } finally {
    await client.close();
    await me.close();
    await stopAll([server]);
  }
}
