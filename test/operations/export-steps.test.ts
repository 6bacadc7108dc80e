// Issue 29 item 1: a long export reads off the writers' connection, in steps on a snapshot of its
// own. Writes made while it reads do not show in it (the file is one moment of the database), and
// the server's event loop turns between its pages: no turn reads more than one page of rows, so a
// call arriving meanwhile waits for one page, not for the whole file. Both stores.
import { parse } from 'csv-parse/sync';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsAStep } from '../../core/platform/pipeline/long-read';
import type { OpenSnapshot } from '../../db/read-snapshot';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let event: DoorEvent;
/** More than two pages of the lists (500 a page), and 22 steps of the export (rowsAStep). */
const people = 1_100;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Long exports');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  event = await seedDoorEvent(t, workspaceId, key);
  await event.register(event.general, people);
});
afterAll(async () => t?.close());

const exportPath = (format: string) => `/events/${event.eventId}/exports/attendees?format=${format}`;

/** The next snapshot the server opens is handed to `wrap` first; later ones are the server's own. */
function onNextSnapshot(wrap: (opened: Awaited<ReturnType<OpenSnapshot>>) => Promise<void> | void) {
  const services = t.server.services;
  const open = services.snapshot;
  services.snapshot = async () => {
    services.snapshot = open;
    const opened = await open();
    await wrap(opened);
    return opened;
  };
}

async function csvRows(): Promise<string[][]> {
  const res = await t.fetch(`${t.server.origin}/api/v1${exportPath('csv')}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status, bytes.toString()).toBe(200);
  const [, ...rows] = parse(bytes, { bom: true }) as string[][];
  return rows;
}

describe('a long export', () => {
  it('is one moment of the database: what is written while it reads is not in it', async () => {
    for (const format of ['json', 'csv']) {
      const before = (await walkPages(t, key, `/events/${event.eventId}/attendees?limit=500`)).items;
      expect(before.length).toBeGreaterThanOrEqual(people);
      const renamed = before[0];
      // Once its snapshot is open, before its first page: a new registration, and a change that
      // moves a first-page attendee to the end of the list's order.
      onNextSnapshot(async () => {
        await event.register(event.general, 2);
        const changed = await t.api(`/events/${event.eventId}/attendees/${renamed.attendeeId}`, {
          key,
          method: 'PATCH',
          body: { firstName: `Renamed ${format}` },
        });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      });
      if (format === 'json') {
        const file = await t.api(exportPath('json'), { key });
        expect(file.status, JSON.stringify(file.body)).toBe(200);
        expect(file.body.total).toBe(before.length);
        expect(file.body.data.map(({ addOns, ...item }: any) => item)).toEqual(before);
      } else {
        const rows = await csvRows();
        expect(rows.length).toBe(before.length);
        expect(rows.map((row) => row[0])).toEqual(before.map((a) => a.attendeeId));
        expect(rows.flat()).not.toContain(`Renamed ${format}`);
      }
      // The writes did happen: the list shows them now.
      const after = (await walkPages(t, key, `/events/${event.eventId}/attendees?limit=500`)).items;
      expect(after.length).toBe(before.length + 2);
      expect(after.at(-1).firstName).toBe(`Renamed ${format}`);
    }
  });

  it('reads at most one step of rows between two turns of the event loop', async () => {
    let rowsThisTurn = 0;
    let mostInATurn = 0;
    let turns = 0;
    // Counts the rows every statement of the export's snapshot answers (the database's own answers).
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        rowsThisTurn += args.result.rows.length;
        return args.result;
      },
    };
    onNextSnapshot((opened) => {
      opened.db = opened.db.withPlugin(counting);
    });
    let ticking = true;
    const tick = () => {
      mostInATurn = Math.max(mostInATurn, rowsThisTurn);
      rowsThisTurn = 0;
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const rows = await csvRows();
      expect(rows.length).toBeGreaterThanOrEqual(people);
    } finally {
      ticking = false;
    }
    // A step is rowsAStep attendees and the few rows its rules read (its event, …), in a turn of its own.
    expect(mostInATurn).toBeGreaterThanOrEqual(rowsAStep);
    expect(mostInATurn).toBeLessThanOrEqual(rowsAStep + 10);
    expect(turns).toBeGreaterThan(people / rowsAStep);
  });

  it('gives its snapshot back when the download is abandoned half-way', async () => {
    let released = false;
    let statements = 0;
    let letGo!: () => void;
    const abandoned = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    // Its first step is read; from its second on, its statements wait until the client has gone.
    const holding: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        if (statements > 2) await abandoned;
        return args.result;
      },
    };
    onNextSnapshot((opened) => {
      opened.db = opened.db.withPlugin(holding);
      const release = opened.release;
      opened.release = async () => {
        released = true;
        await release();
      };
    });
    const stop = new AbortController();
    const res = await t.fetch(`${t.server.origin}/api/v1${exportPath('csv')}`, {
      // Uncompressed: a compressor would keep the first rows until it had more.
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    stop.abort();
    await reader.read().catch(() => undefined);
    expect(released).toBe(false);
    letGo();
    // The server learns of it when the connection closes; it then ends the read and its snapshot.
    await vi.waitFor(() => expect(released).toBe(true), { timeout: 60_000, interval: 20 });
  });
});
