// The checked orders of one event, kept as their JSON text compressed a block at a time (outside the
// JavaScript heap, a small fraction of the parsed objects and of the rows they plan) and read back
// each time the import goes through them: once to check the file, once to write it in batches.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { OrderInput } from './sections/sales';

/** Orders compressed together: big enough to compress well, small enough to read back at once. */
const ordersPerBlock = 1000;

export class StoredOrders implements Iterable<OrderInput> {
  private blocks: Buffer[] = [];
  private pending: string[] = [];
  private count = 0;
  /** The references the file gives its orders (the others are made so as not to meet these). */
  readonly references = new Set<string>();

  static of(orders: readonly OrderInput[]): StoredOrders {
    const stored = new StoredOrders();
    for (const order of orders) stored.add(order);
    return stored;
  }

  get length(): number {
    return this.count;
  }

  add(order: OrderInput): void {
    // JSON.stringify writes no raw line break: one line an order.
    this.pending.push(JSON.stringify(order));
    this.count++;
    if (order.reference) this.references.add(order.reference);
    if (this.pending.length === ordersPerBlock) this.seal();
  }

  *[Symbol.iterator](): Iterator<OrderInput> {
    this.seal();
    for (const block of this.blocks)
      for (const line of inflateRawSync(block).toString('utf8').split('\n'))
        yield JSON.parse(line) as OrderInput;
  }

  private seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(deflateRawSync(Buffer.from(this.pending.join('\n'), 'utf8'), { level: 1 }));
    this.pending = [];
  }
}
