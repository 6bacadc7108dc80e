// The import reads its file in chunks and holds its orders one at a time (issue 29, item 1): it
// answers every file as a check of the whole parsed file answers it (the same problems in the same
// order: JSON's own message, the text rules' faults, the format's issues, wherever they are, with
// keys given twice read as JSON.parse reads them), pieces split at any character add up to the
// file, and a file whose whole copy does not fit the memory a process is given imports all the
// same, because neither the file nor its planned rows are ever held whole.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFormat } from '../../core/import/format';
import { formatIssues } from '../../core/import/format-issues';
import { jsonPath } from '../../core/import/json-path';
import type { ImportIssue } from '../../core/import/plan';
import { readImportFile } from '../../core/import/read-file';
import { FileSplitter } from '../../core/import/split-file';
import { ImportRefused } from '../../core/import/write';
import { textFaults } from '../../core/platform/faithful-text';
import { ourWords } from '../../core/platform/issue-messages';
import { exampleFile, largeEventFile } from '../support/import-files';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

/** What a check of the whole parsed file answers (the import before it read files in chunks). */
function wholeCheck(text: string): ImportIssue[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return [{ path: '', message: `Not JSON: ${(error as Error).message}` }];
  }
  const faults = textFaults(data);
  if (faults.length > 0) return faults.map((f) => ({ path: jsonPath(f.path), message: `Text ${f.fault}.` }));
  const parsed = v.safeParse(importFormat, data, ourWords);
  return parsed.success ? [] : formatIssues(parsed.issues).map(({ path, message }) => ({ path, message }));
}

/** What the import's reader answers. */
async function streamedCheck(text: string): Promise<ImportIssue[]> {
  try {
    await readImportFile({ text });
    return [];
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    return error.issues;
  }
}

async function sameAnswer(text: string): Promise<ImportIssue[]> {
  const whole = wholeCheck(text);
  expect(await streamedCheck(text)).toEqual(whole);
  return whole;
}

/** The example with more orders in its first event, each a copy of its first under a key of its own. */
function withOrders(count: number): any {
  const file = exampleFile();
  const first = file.events[0].orders[0];
  for (let i = 0; i < count; i++)
    file.events[0].orders.push({ ...structuredClone(first), key: `extra-${i}`, reference: undefined });
  return file;
}

describe('a file read in pieces', () => {
  it('has the format issues a whole check finds, in its order, around and inside the orders', async () => {
    const file = withOrders(3);
    file.version = 2;
    file.surplus = true;
    const [first, second] = file.events;
    first.colour = 'blue';
    first.ticketTypes[0].price = -1;
    first.orders[0].attendees[1].email = 'not-an-address';
    first.orders[2].status = 'lost';
    first.orders[3].misspelt = 1;
    first.sessions[0].kind = 'lecture';
    second.orders[0].buyer = 'nobody';
    second.name = '';
    file.passes[0].kind = 'other';
    const issues = await sameAnswer(JSON.stringify(file));
    expect(issues.length).toBeGreaterThanOrEqual(11);
  });

  it('has the text faults a whole check finds, in its order, a key of the event first', async () => {
    const file = withOrders(2);
    const event = file.events[0];
    event.name = 'Nul\u0000Name';
    event.orders[1].attendees[0].firstName = '\ud800';
    event.orders[2].buyer.name = 'a\u0000b';
    event.leads[0].note = 'fine\u0000not';
    // A faulty key among the event's last keys: the walk names an object's keys before its values.
    event['late\u0000key'] = 1;
    file.events[1].name = '\udfff';
    const issues = await sameAnswer(JSON.stringify(file));
    expect(issues).toHaveLength(6);
    expect(issues[0]!.path).toBe('events[0]["late\\u0000key"]');
  });

  it('names the first 100 text faults of a file with more, as a whole check does', async () => {
    const file = withOrders(120);
    for (const order of file.events[0].orders) order.buyer.name = 'a\u0000b';
    file.events[0].leads[0].note = 'fine\u0000not';
    expect(await sameAnswer(JSON.stringify(file))).toHaveLength(100);
  });

  it("says why a file is not JSON in JSON.parse's own words, wherever it breaks", async () => {
    const text = JSON.stringify(withOrders(2));
    const at = text.indexOf('"extra-1"');
    const broken = [
      text.slice(0, at),
      text.replace('"key":"extra-0"', '"key":"extra-0",'),
      text.replace('},{"key":"extra-1"', '},,{"key":"extra-1"'),
      text.replace(/\}\],"sessions"/, '},],"sessions"'),
      text.replace(/\}\],"sessions"/, '}},"sessions"'),
      `${text} x`,
      '',
      '{"events": [{"orders": [',
    ];
    for (const piece of broken) {
      const issues = await sameAnswer(piece);
      expect(issues).toEqual([{ path: '', message: expect.stringMatching(/^Not JSON: /) }]);
    }
  });

  it('reads keys given twice as JSON.parse does: the last "orders" and the last "events" count', async () => {
    const file = withOrders(1);
    const text = JSON.stringify(file);
    const orders = JSON.stringify(file.events[0].orders);
    const once = JSON.stringify([file.events[0].orders[1]]);
    const doubled = text
      .replace('"orders":', `"orders":${orders},"orders":`)
      .replace(`"orders":${orders},"orders":${orders}`, `"orders":${orders},"orders":${once}`);
    const twice = `{"events":[{"orders":[{"key":"gone"}]}],${doubled.slice(1)}`;
    expect(await sameAnswer(twice)).toEqual([]);
    const read = await readImportFile({ text: twice });
    const expected = v.parse(importFormat, JSON.parse(twice)).events[0]!.orders;
    expect([...read.orders(0)]).toEqual(expected);
    expect(expected.map((o) => o.key)).toEqual([file.events[0].orders[1].key]);
  });

  it('adds up to the file however it is cut: one character at a time', () => {
    const file = withOrders(2);
    file.events[0].orders[0].attendees[0].answers = JSON.parse('{"__proto__": "x", "a\\"]}": "[{"}');
    const text = JSON.stringify(file, null, 1);
    const orders = new Map<number, unknown[]>();
    const splitter = new FileSplitter({
      eventsStart: () => orders.clear(),
      ordersStart: (event) => orders.set(event, []),
      order: (event, piece) => orders.get(event)!.push(JSON.parse(piece)),
    });
    for (const c of text) splitter.write(c);
    const skeleton = JSON.parse(splitter.end()!);
    const whole = JSON.parse(text);
    whole.events.forEach((event: any, i: number) => {
      expect(orders.get(i)).toEqual(event.orders);
      event.orders = [];
    });
    expect(skeleton).toEqual(whole);
  });
});

describe('a file larger than the memory the import is given', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.close());

  // Long on PostgreSQL on a loaded machine: the database's time, not the import's.
  it('imports, the file and its rows never held whole', { timeout: 600_000 }, async () => {
    const { workspaceId } = await t.workspace('Large file, little memory');
    const dir = mkdtempSync(join(tmpdir(), 'tessera-import-streamed-'));
    const path = join(dir, 'large.json');
    // 20,000 tickets: whole, the file, its parsed copy, its checked copy and its planned rows take
    // more than the 96 MB of V8 heap the process is given here (it runs out and aborts); in chunks
    // it needs less than 64 MB.
    writeFileSync(path, JSON.stringify(largeEventFile(20_000, 'streamed-large')));
    const run = await runTessera(
      ['import', '--workspace', workspaceId, path, '--data', t.dataDir],
      { NODE_OPTIONS: '--max-old-space-size=96' },
      300_000,
    );
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(run.stdout).created).toMatchObject({ orders: 10_000, attendees: 20_000 });
    const attendees = await t.server.services.db
      .selectFrom('attendees')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    expect(Number(attendees.n)).toBe(20_000);
  });
});
