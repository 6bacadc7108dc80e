// The import plans each order once (issue 29): while it checks the file it makes the rows of the
// orders, their tickets and the tickets' add-ons, keeps them compressed, and the writer takes those
// same rows back in batches of whole orders instead of planning the orders again.
import { describe, expect, it } from 'vitest';
import { CompressedLines } from '../../core/import/compressed-lines';
import type { PlannedRow } from '../../core/import/plan';
import { planFile } from '../../core/import/plan-file';
import { readImportFile } from '../../core/import/read-file';
import type { StoredOrders } from '../../core/import/stored-orders';
import { ordersPerBatch } from '../../core/import/write';
import { exampleFile, largeEventFile } from '../support/import-files';

const workspaceId = '7d0c1f5e-58a4-4d1a-9f57-0c6a2f5d9b10';
const now = '2026-11-26T12:00:00.000Z';

/** Reads a file as the import does, counting how often each event's orders are gone through. */
async function planCounting(file: unknown) {
  const { file: checked, orders } = await readImportFile({ text: JSON.stringify(file) });
  let passes = 0;
  const plan = planFile(checked, workspaceId, now, (event) => {
    const stored = orders(event);
    return Object.assign(Object.create(stored) as StoredOrders, {
      *[Symbol.iterator]() {
        passes++;
        yield* stored;
      },
    });
  });
  return { plan, passes: () => passes };
}

describe('the orders of an import file', () => {
  it('are planned once: the writer takes back the rows the check made, in batches of whole orders', async () => {
    const orders = ordersPerBatch * 2 + 100;
    const { plan, passes } = await planCounting(largeEventFile(orders * 2, 'planned-once'));
    expect(plan.issues).toEqual([]);
    expect(passes()).toBe(1);
    const sizes: number[] = [];
    const attendeeIds = new Set<string>();
    for (const batch of plan.bulkRows.batches(ordersPerBatch)) {
      const orderRows = batch.tables.get('orders') ?? [];
      const orderIds = new Set(orderRows.map((p) => String(p.row.id)));
      sizes.push(orderRows.length);
      // Every ticket is written with its order, never in a batch before or after it.
      for (const { row, path, insertOnly } of batch.tables.get('attendees') ?? []) {
        expect(orderIds.has(String(row.order_id))).toBe(true);
        expect(path).toMatch(/^events\[0\]\.orders\[\d+\]\.attendees\[[01]\]$/);
        expect(insertOnly).toMatchObject({ erased: 0, ticket_code: expect.any(String) });
        attendeeIds.add(String(row.id));
      }
    }
    expect(sizes).toEqual([ordersPerBatch, ordersPerBatch, 100]);
    expect(attendeeIds.size).toBe(orders * 2);
    // Taking them back does not plan them again.
    expect(passes()).toBe(1);
  });

  it("keep each ticket's add-ons with it, and rows as a fresh plan makes them", async () => {
    const first = (await planCounting(exampleFile())).plan;
    const second = (await planCounting(exampleFile())).plan;
    const taken = (plan: typeof first) => {
      const rows: Record<string, PlannedRow[]> = {};
      const sets: Record<string, [string, PlannedRow[]][]> = {};
      for (const batch of plan.bulkRows.batches(2)) {
        // The ticket code (insertOnly) is made at random for a new ticket: the rest is the file's.
        for (const [table, planned] of batch.tables)
          rows[table] = [...(rows[table] ?? []), ...planned.map((p) => ({ ...p.row, path: p.path }))];
        for (const [table, set] of batch.sets) sets[table] = [...(sets[table] ?? []), ...set.byParent];
      }
      return { rows, sets };
    };
    const { rows, sets } = taken(first);
    expect(taken(second)).toEqual({ rows, sets });
    expect(rows.orders!.length).toBeGreaterThan(1);
    const withAddOns = sets.attendee_add_ons!.filter(([, addOns]) => addOns.length > 0);
    expect(withAddOns.length).toBeGreaterThan(0);
    for (const [attendeeId, addOns] of withAddOns)
      for (const addOn of addOns) expect(addOn.attendee_id).toBe(attendeeId);
    expect(sets.attendee_add_ons!.map(([id]) => id).sort()).toEqual(
      rows.attendees!.map((row) => String(row.id)).sort(),
    );
  });
});

describe('lines kept compressed', () => {
  it('come back as they were added, in order, across blocks', () => {
    const lines = new CompressedLines(3);
    const added = Array.from({ length: 10 }, (_, i) => JSON.stringify({ i, text: `Café ${i} 😀 "quoted"` }));
    for (const line of added) lines.add(line);
    expect([...lines]).toEqual(added);
    // Read again, and after more lines.
    lines.add('last');
    expect([...lines]).toEqual([...added, 'last']);
  });
});
