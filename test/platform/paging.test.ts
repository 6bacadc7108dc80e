// Paging (spec "Common conventions"): limit 1..500 default 100, signed cursors bound to their
// filters, updatedSince, and the legacy page/pageSize/sort parameters of the shared machinery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../core/platform/context';
import { verifyToken } from '../../core/platform/pipeline/authenticate';
import { applyPlan, finishPage, type PageInput, planPage } from '../../core/platform/pipeline/paging';
import { isProblem } from '../../core/platform/problems';
import { eventBody, expectProblem } from '../support/fixtures';
import { type ApiAnswer, MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let reader: string;
let writer: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Paging workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['events:write'], expires: 'never' }));
  // 5 sample events, plus 103 made through the API: more than the default page of 100.
  for (let batch = 0; batch < 103; batch += 10) {
    const size = Math.min(10, 103 - batch);
    const answers = await Promise.all(
      Array.from({ length: size }, () =>
        t.api('/events', { key: writer, method: 'POST', body: eventBody() }),
      ),
    );
    for (const a of answers) expect(a.status).toBe(201);
  }
});
afterAll(async () => t.close());

const total = 108;

async function walk(query: string, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? '&' : '';
    const res: ApiAnswer = await t.api(
      `/events?${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`,
      {
        key: reader,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    ids.push(...res.body.data.map((e: { eventId: string }) => e.eventId));
    cursor = res.body.nextCursor;
    pages += 1;
    if (cursor && between) await between(pages);
  } while (cursor && pages < 1000);
  return { ids, pages };
}

describe('limit', () => {
  it('answers a page of data, nextCursor and hasMore', async () => {
    const res = await t.api('/events?limit=2', { key: reader });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.hasMore).toBe(true);
    expect(typeof res.body.nextCursor).toBe('string');
  });

  it('gives 100 items when no limit is sent', async () => {
    const res = await t.api('/events', { key: reader });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.hasMore).toBe(true);
  });

  it('accepts limit 1 and limit 500', async () => {
    expect((await t.api('/events?limit=1', { key: reader })).body.data).toHaveLength(1);
    const all = await t.api('/events?limit=500', { key: reader });
    expect(all.body.data).toHaveLength(total);
    expect(all.body.hasMore).toBe(false);
    expect(all.body.nextCursor).toBeNull();
  });

  it('refuses limit 501 with 400 invalidRequest naming limit', async () => {
    const body = expectProblem(await t.api('/events?limit=501', { key: reader }), 400, 'invalidRequest');
    expect(body.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('refuses limit 0, a negative limit and a fraction with 400 invalidRequest', async () => {
    for (const limit of ['0', '-1', '2.5']) {
      expectProblem(await t.api(`/events?limit=${limit}`, { key: reader }), 400, 'invalidRequest');
    }
  });

  it('orders the list oldest change first', async () => {
    const res = await t.api('/events?limit=500', { key: reader });
    const updated = res.body.data.map((e: { updatedUtc: string }) => e.updatedUtc);
    expect([...updated].sort()).toEqual(updated);
  });
});

describe('cursor', () => {
  it('walks every page without skipping or repeating an event', async () => {
    const all = (await t.api('/events?limit=500', { key: reader })).body.data.map(
      (e: { eventId: string }) => e.eventId,
    );
    const { ids, pages } = await walk('limit=7');
    expect(pages).toBe(Math.ceil(total / 7));
    expect(ids).toEqual(all);
  });

  it('neither skips nor repeats while events are created between pages, and ends with the new ones', async () => {
    const before = new Set(
      (await t.api('/events?limit=500', { key: reader })).body.data.map(
        (e: { eventId: string }) => e.eventId,
      ),
    );
    const created: string[] = [];
    const { ids } = await walk('limit=25', async () => {
      const res = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
      created.push(res.body.eventId);
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
    for (const id of created) expect(ids).toContain(id);
    expect(ids.slice(-created.length)).toEqual(created);
  });

  it('moves a changed event to the end of the list (oldest change first), so a sync sees the change', async () => {
    const first = await t.api('/events?limit=3', { key: reader });
    const changed = first.body.data[0].eventId;
    const rest = first.body.nextCursor;
    const patched = await t.api(`/events/${changed}`, {
      key: writer,
      method: 'PATCH',
      body: { name: 'Moved on' },
    });
    expect(patched.status).toBe(200);
    const res = await t.api(`/events?limit=500&cursor=${encodeURIComponent(rest)}`, { key: reader });
    const ids = res.body.data.map((e: { eventId: string }) => e.eventId);
    expect(ids[ids.length - 1]).toBe(changed);
    expect(res.body.data[ids.length - 1].name).toBe('Moved on');
    expect(ids).not.toContain(first.body.data[1].eventId);
  });

  it('refuses a tampered cursor with 400 invalidCursor', async () => {
    const { nextCursor } = (await t.api('/events?limit=2', { key: reader })).body;
    const [body, signature] = nextCursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    payload.p = [0];
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    const flipped = `${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const cursor of [forged, flipped, 'garbage', `${nextCursor}.extra`, '']) {
      const res = await t.api(`/events?limit=2&cursor=${encodeURIComponent(cursor)}`, { key: reader });
      expectProblem(res, 400, 'invalidCursor');
    }
  });

  it('refuses a cursor sent with other filters than its first page with 400 invalidCursor', async () => {
    const published = (await t.api('/events?status=published&limit=1', { key: reader })).body;
    expect(published.nextCursor).not.toBeNull();
    const cursor = encodeURIComponent(published.nextCursor);
    expectProblem(await t.api(`/events?limit=1&cursor=${cursor}`, { key: reader }), 400, 'invalidCursor');
    expectProblem(
      await t.api(`/events?status=draft&limit=1&cursor=${cursor}`, { key: reader }),
      400,
      'invalidCursor',
    );
    const unfiltered = (await t.api('/events?limit=1', { key: reader })).body.nextCursor;
    expectProblem(
      await t.api(`/events?status=published&cursor=${encodeURIComponent(unfiltered)}`, { key: reader }),
      400,
      'invalidCursor',
    );
    // The same filters are accepted, with another limit too.
    const next = await t.api(`/events?status=published&limit=5&cursor=${cursor}`, { key: reader });
    expect(next.status).toBe(200);
    for (const e of next.body.data) expect(e.status).toBe('published');
  });

  it('refuses a cursor made with another updatedSince with 400 invalidCursor', async () => {
    const since = '2000-01-01T00:00:00Z';
    const page = (await t.api(`/events?limit=1&updatedSince=${since}`, { key: reader })).body;
    const cursor = encodeURIComponent(page.nextCursor);
    expectProblem(await t.api(`/events?limit=1&cursor=${cursor}`, { key: reader }), 400, 'invalidCursor');
    const same = await t.api(`/events?limit=1&updatedSince=${since}&cursor=${cursor}`, { key: reader });
    expect(same.status).toBe(200);
  });
});

describe('updatedSince', () => {
  it('refuses a value that is not an ISO 8601 moment with 400 invalidUpdatedSince', async () => {
    for (const bad of [
      'yesterday',
      '2026-01-01',
      '2026-13-01T00:00:00Z',
      '2026-01-01T00:00:00',
      '1700000000',
    ]) {
      const res = await t.api(`/events?updatedSince=${encodeURIComponent(bad)}`, { key: reader });
      expectProblem(res, 400, 'invalidUpdatedSince');
    }
  });

  it('answers only what changed at or after the moment', async () => {
    clock.advance(60_000);
    const made = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
    const since = made.body.updatedUtc;
    clock.advance(60_000);
    const later = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
    const res = await t.api(`/events?updatedSince=${encodeURIComponent(since)}`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { eventId: string }) => e.eventId)).toEqual([
      made.body.eventId,
      later.body.eventId,
    ]);
  });

  it('accepts a moment with an offset', async () => {
    const made = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
    const offset = new Date(Date.parse(made.body.updatedUtc) + 2 * 3_600_000)
      .toISOString()
      .replace('Z', '+02:00');
    const res = await t.api(`/events?updatedSince=${encodeURIComponent(offset)}`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { eventId: string }) => e.eventId)).toContain(made.body.eventId);
    for (const e of res.body.data) expect(e.updatedUtc >= made.body.updatedUtc).toBe(true);
  });
});

describe('legacy page, pageSize and sort (shared machinery, on the events table)', () => {
  let ctx: Ctx;

  beforeAll(async () => {
    const verified = await verifyToken(t.server.services, reader, 'rest');
    if (!verified.ok) throw verified.problem;
    const s = t.server.services;
    ctx = {
      db: s.db,
      clock: s.clock,
      actor: verified.actor,
      services: s,
      request: { origin: t.server.origin },
    };
  });

  const columns = {
    txn: 'change_txn',
    seq: 'change_seq',
    updated: 'updated_utc',
    created: 'created_utc',
    id: 'id',
  };
  const options = { list: 'legacy-events', filters: { workspaceId }, legacy: true };

  async function page(input: PageInput) {
    const plan = planPage(ctx, input, options);
    const query = ctx.db.selectFrom('events').selectAll().where('workspace_id', '=', workspaceId);
    const rows = await applyPlan(query, plan, columns).execute();
    return finishPage(
      ctx,
      plan,
      rows,
      (r) => ({ txn: r.change_txn, seq: r.change_seq, created: r.created_utc, id: r.id }),
      (r) => ({ id: r.id, created: r.created_utc }),
    );
  }

  function codeOf(fn: () => unknown): string | undefined {
    try {
      fn();
    } catch (error) {
      return isProblem(error) ? error.code : 'not a problem';
    }
    return undefined;
  }

  it('refuses a sort other than changed or -created with invalidSort', () => {
    expect(codeOf(() => planPage(ctx, { sort: 'bogus' }, options))).toBe('invalidSort');
    expect(codeOf(() => planPage(ctx, { sort: 'created' }, options))).toBe('invalidSort');
    expect(codeOf(() => planPage(ctx, { sort: '-created' }, options))).toBeUndefined();
    expect(codeOf(() => planPage(ctx, { sort: 'changed' }, options))).toBeUndefined();
  });

  it('orders -created newest first', async () => {
    const result = await page({ sort: '-created', limit: 500 });
    const expected = [...result.data].sort((a, b) =>
      a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1,
    );
    expect(result.data.length).toBeGreaterThan(total);
    expect(result.data).toEqual(expected);
  });

  it('answers page and pageSize back, and gives the rows of that page', async () => {
    const all = (await page({ sort: '-created', limit: 500 })).data;
    const second = await page({ sort: '-created', page: 2, pageSize: 3 });
    expect(second.page).toBe(2);
    expect(second.pageSize).toBe(3);
    expect(second.data).toEqual(all.slice(3, 6));
    const first = await page({ pageSize: 4 });
    expect(first.page).toBe(1);
    expect(first.pageSize).toBe(4);
  });

  it('does not add page and pageSize to answers that did not ask by page', async () => {
    const plain = await page({ limit: 3 });
    expect(plain).not.toHaveProperty('page');
    expect(plain).not.toHaveProperty('pageSize');
  });

  it('walks -created with cursors without skipping or repeating', async () => {
    const all = (await page({ sort: '-created', limit: 500 })).data.map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await page({ sort: '-created', limit: 9, cursor });
      seen.push(...result.data.map((r) => r.id));
      cursor = result.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('refuses a cursor of one sort under the other with invalidCursor', async () => {
    const result = await page({ sort: '-created', limit: 2 });
    expect(codeOf(() => planPage(ctx, { cursor: result.nextCursor!, sort: 'changed' }, options))).toBe(
      'invalidCursor',
    );
  });

  it('refuses a cursor of one list in another list with invalidCursor', async () => {
    const result = await page({ limit: 2 });
    expect(
      codeOf(() => planPage(ctx, { cursor: result.nextCursor! }, { ...options, list: 'other-list' })),
    ).toBe('invalidCursor');
  });
});
