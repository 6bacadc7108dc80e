// The checked orders of one event, each kept as its JSON text (a tenth of the memory of the parsed
// objects and of the rows they plan) and parsed again each time the import goes through them: once
// to check the file, once to write it in batches.
import type { OrderInput } from './sections/sales';

export class StoredOrders implements Iterable<OrderInput> {
  private texts: string[] = [];
  /** The references the file gives its orders (the others are made so as not to meet these). */
  readonly references = new Set<string>();

  static of(orders: readonly OrderInput[]): StoredOrders {
    const stored = new StoredOrders();
    for (const order of orders) stored.add(order);
    return stored;
  }

  get length(): number {
    return this.texts.length;
  }

  add(order: OrderInput): void {
    this.texts.push(JSON.stringify(order));
    if (order.reference) this.references.add(order.reference);
  }

  *[Symbol.iterator](): Iterator<OrderInput> {
    for (const text of this.texts) yield JSON.parse(text) as OrderInput;
  }
}
