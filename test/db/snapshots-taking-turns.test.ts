// Long reads take turns (db/read-snapshot.ts takingTurns): at most so many snapshots open at once,
// the next opened when one is released, in the order asked; a snapshot that fails to open gives its
// turn back, and releasing twice gives back one turn. On PostgreSQL each holds a pool connection.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/connect';
import { longReadsAtOnce } from '../../db/connect';
import { type OpenSnapshot, takingTurns } from '../../db/read-snapshot';

/** Snapshots that record how many are open; `failNext` makes the next opening fail. */
function recorded() {
  const state = { open: 0, most: 0, opened: [] as number[], failNext: false };
  let n = 0;
  const open: OpenSnapshot = async () => {
    if (state.failNext) {
      state.failNext = false;
      throw new Error('no connection');
    }
    n += 1;
    const id = n;
    state.open += 1;
    state.most = Math.max(state.most, state.open);
    state.opened.push(id);
    let released = false;
    return {
      db: {} as Db,
      // As the stores' own: safe to call twice.
      release: async () => {
        if (!released) state.open -= 1;
        released = true;
      },
    };
  };
  return { state, open };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('long reads taking turns', () => {
  it('opens at most the bound at once and the next in the order asked as each is released', async () => {
    const { state, open } = recorded();
    const turns = takingTurns(open, 2);
    const first = await turns();
    const second = await turns();
    const order: string[] = [];
    const third = turns().then((s) => {
      order.push('third');
      return s;
    });
    const fourth = turns().then((s) => {
      order.push('fourth');
      return s;
    });
    await settled();
    expect(state.open).toBe(2);
    expect(order).toEqual([]);
    await first.release();
    await settled();
    expect(order).toEqual(['third']);
    await first.release(); // twice: still one turn given back
    await settled();
    expect(order).toEqual(['third']);
    await second.release();
    await settled();
    expect(order).toEqual(['third', 'fourth']);
    await (await third).release();
    await (await fourth).release();
    expect(state.most).toBe(2);
    expect(state.open).toBe(0);
  });

  it('gives the turn of a snapshot that failed to open to the next', async () => {
    const { state, open } = recorded();
    const turns = takingTurns(open, 1);
    state.failNext = true;
    await expect(turns()).rejects.toThrow('no connection');
    const next = await turns();
    expect(state.open).toBe(1);
    await next.release();
  });

  it('allows a tenth of the PostgreSQL connections, at least one', () => {
    expect([5, 10, 25, 100].map(longReadsAtOnce)).toEqual([1, 1, 2, 10]);
  });
});
