// The checked orders of one event, kept as their JSON text compressed a block at a time (outside the
// JavaScript heap, a small fraction of the parsed objects) until the plan goes through them once.
import { CompressedLines } from './compressed-lines';
import type { OrderInput } from './sections/sales-format';

export class StoredOrders implements Iterable<OrderInput> {
  private readonly lines = new CompressedLines(1000);
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
    this.lines.add(JSON.stringify(order));
    this.count++;
    if (order.reference) this.references.add(order.reference);
  }

  *[Symbol.iterator](): Iterator<OrderInput> {
    for (const line of this.lines) yield JSON.parse(line) as OrderInput;
  }
}
