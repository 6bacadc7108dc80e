// Reads an import file in chunks and checks it by the rules the whole file is held to (UTF-8, JSON,
// the text rules, the format), holding its orders one at a time: each is parsed, checked and kept
// as compact text as it comes. Problems are answered as a check of the whole file answers them, in
// the same order: JSON's own message, then the text rules' faults, then the format's issues.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { decodeUtf8, type TextFault, textFault, textFaults } from '../platform/faithful-text';
import { ourWords } from '../platform/issue-messages';
import { eventFormat, type ImportFile, importFormat } from './format';
import { type FormatIssue, formatIssues } from './format-issues';
import { jsonPath } from './json-path';
import { orderFormat } from './sections/sales-format';
import { FileSplitter } from './split-file';
import { StoredOrders } from './stored-orders';
import { ImportRefused } from './write';

/** Where an import file comes from: a file on disk (read in chunks), or its text. */
export type ImportSource = { path: string } | { text: string };

export interface ReadImport {
  file: ImportFile;
  /** The orders of each event, by its index in the file. */
  orders: (index: number) => StoredOrders;
}

const chunkSize = 1 << 20;
const mostFaults = 100;
type Keys = (string | number)[];

class NotUtf8 extends Error {}

/** The file's text in chunks; bytes that are not UTF-8 throw NotUtf8. */
async function* textChunks(source: ImportSource): AsyncGenerator<string> {
  if ('text' in source) {
    for (let i = 0; i < source.text.length; i += chunkSize) yield source.text.slice(i, i + chunkSize);
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw new NotUtf8();
    }
  };
  for await (const bytes of createReadStream(source.path, { highWaterMark: chunkSize })) yield decode(bytes);
  yield decode();
}

/** The whole text, read only to say why a file is not JSON (JSON.parse's own words). */
async function wholeText(source: ImportSource): Promise<string> {
  if ('text' in source) return source.text;
  return decodeUtf8(await readFile(source.path)) ?? '';
}

/** The orders of each event, checked as they come, with the problems found in them. */
class OrderCollector {
  private byEvent = new Map<number, StoredOrders>();
  private seen = new Map<number, number>();
  readonly faults = new Map<number, TextFault[]>();
  private faultCount = 0;
  readonly issues = new Map<number, FormatIssue[]>();
  broken = false;

  eventsStart(): void {
    this.byEvent.clear();
    this.seen.clear();
    this.faults.clear();
    this.issues.clear();
    this.faultCount = 0;
  }

  ordersStart(event: number): void {
    this.byEvent.set(event, new StoredOrders());
    this.seen.set(event, 0);
    this.faultCount -= this.faults.get(event)?.length ?? 0;
    this.faults.delete(event);
    this.issues.delete(event);
  }

  order(event: number, text: string): void {
    const index = this.seen.get(event)!;
    this.seen.set(event, index + 1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.broken = true;
      return;
    }
    const at: Keys = ['events', event, 'orders', index];
    if (this.faultCount < mostFaults) {
      const found = textFaults(value, mostFaults - this.faultCount);
      if (found.length > 0) {
        this.faultCount += found.length;
        const list = this.faults.get(event) ?? [];
        list.push(...found.map((f) => ({ path: [...at, ...f.path], fault: f.fault })));
        this.faults.set(event, list);
      }
    }
    const parsed = v.safeParse(orderFormat, value, ourWords);
    if (!parsed.success) {
      const list = this.issues.get(event) ?? [];
      list.push(...formatIssues(parsed.issues, at));
      this.issues.set(event, list);
    } else if (this.faultCount === 0 && this.issues.size === 0) this.byEvent.get(event)!.add(parsed.output);
  }

  /** How many orders each event's array had. */
  counts(): Map<number, number> {
    return this.seen;
  }

  ordersOf(event: number): StoredOrders {
    return this.byEvent.get(event) ?? new StoredOrders();
  }
}

export async function readImportFile(source: ImportSource): Promise<ReadImport> {
  const orders = new OrderCollector();
  const splitter = new FileSplitter(orders);
  try {
    for await (const chunk of textChunks(source)) splitter.write(chunk);
  } catch (error) {
    if (error instanceof NotUtf8)
      throw new ImportRefused([{ path: '', message: 'Not UTF-8: save the file as UTF-8.' }]);
    throw error;
  }
  const skeletonText = splitter.end();
  let skeleton: unknown;
  try {
    if (skeletonText === null || orders.broken) throw new SyntaxError('broken');
    skeleton = JSON.parse(skeletonText);
  } catch {
    return readWhole(source);
  }
  return checked(skeleton, orders);
}

/**
 * The pieces did not add up: JSON.parse of the whole text says why. Should it find JSON there
 * after all, its pieces are checked as the splitter's would have been.
 */
async function readWhole(source: ImportSource): Promise<ReadImport> {
  let value: unknown;
  try {
    value = JSON.parse(await wholeText(source));
  } catch (error) {
    throw new ImportRefused([{ path: '', message: `Not JSON: ${(error as Error).message}` }]);
  }
  const orders = new OrderCollector();
  const events = (value as { events?: unknown } | null)?.events;
  if (Array.isArray(events))
    events.forEach((event, i) => {
      const list = (event as { orders?: unknown } | null)?.orders;
      if (typeof event !== 'object' || event === null || !Array.isArray(list)) return;
      orders.ordersStart(i);
      for (const order of list) orders.order(i, JSON.stringify(order));
      (event as { orders: unknown[] }).orders = [];
    });
  return checked(value, orders);
}

function checked(skeleton: unknown, orders: OrderCollector): ReadImport {
  const faults = merged(textFaults(skeleton, mostFaults), orders.faults, (fault, event) =>
    beforeInText(skeleton, fault.path, event),
  ).slice(0, mostFaults);
  if (faults.length > 0)
    throw new ImportRefused(faults.map((f) => ({ path: jsonPath(f.path), message: `Text ${f.fault}.` })));
  for (const [event, count] of orders.counts()) {
    const tooMany = v.safeParse(ordersLength, { length: count } as unknown[], ourWords);
    if (!tooMany.success)
      orders.issues.set(event, [
        ...(orders.issues.get(event) ?? []),
        ...formatIssues(tooMany.issues, ['events', event, 'orders']),
      ]);
  }
  const parsed = v.safeParse(importFormat, skeleton, ourWords);
  const skeletonIssues = parsed.success ? [] : formatIssues(parsed.issues);
  const issues = merged(skeletonIssues, orders.issues, (issue, event) => beforeInFormat(issue.keys, event));
  if (issues.length > 0 || !parsed.success)
    throw new ImportRefused(issues.map(({ path, message }) => ({ path, message })));
  return { file: parsed.output, orders: (index) => orders.ordersOf(index) };
}

/** The orders array's own rule (at most so many orders), checked on its count. */
const ordersLength = v.pipe(
  v.custom<unknown[]>(() => true),
  ...(eventFormat.entries.orders.wrapped.pipe.filter((action) => action.type === 'max_length') as [
    v.MaxLengthAction<unknown[], number, undefined>,
  ]),
);

/**
 * The skeleton's problems with each event's order problems put where a check of the whole file
 * finds them: before the first of the skeleton's that comes after that event's orders.
 */
function merged<T>(
  skeleton: T[],
  byEvent: Map<number, T[]>,
  before: (item: T, event: number) => boolean,
): T[] {
  const result = [...skeleton];
  let from = 0;
  for (const event of [...byEvent.keys()].sort((a, b) => a - b)) {
    while (from < result.length && before(result[from]!, event)) from++;
    const items = byEvent.get(event)!;
    result.splice(from, 0, ...items);
    from += items.length;
  }
  return result;
}

const formatRank = (keys: readonly string[], key: string | number) => {
  const rank = keys.indexOf(String(key));
  return rank < 0 ? keys.length : rank;
};
const topFields = Object.keys(importFormat.entries);
const eventFields = Object.keys(eventFormat.entries);

/** Whether the format's check reports an issue here before the orders of event `event`. */
function beforeInFormat(keys: readonly (string | number)[], event: number): boolean {
  if (keys.length === 0) return true;
  const top = formatRank(topFields, keys[0]!);
  const events = formatRank(topFields, 'events');
  if (top !== events) return top < events;
  // The events array's own rules are checked after its items.
  if (keys.length === 1) return false;
  if (keys[1] !== event) return Number(keys[1]) < event;
  return keys.length > 2 && formatRank(eventFields, keys[2]!) < formatRank(eventFields, 'orders');
}

/** Whether the text rules' walk (in the file's order, an object's keys first) finds a fault here first. */
function beforeInText(skeleton: unknown, path: readonly (string | number)[], event: number): boolean {
  const root = skeleton as Record<string, unknown>;
  const rootKeys = Object.keys(root);
  if (path.length === 1 && textFault(String(path[0])) !== null) return true;
  if (path[0] !== 'events') return rootKeys.indexOf(String(path[0])) < rootKeys.indexOf('events');
  if (path.length < 2 || path[1] !== event) return path.length >= 2 && Number(path[1]) < event;
  if (path.length < 3) return true;
  if (path.length === 3 && textFault(String(path[2])) !== null) return true;
  const eventKeys = Object.keys((root.events as Record<string, unknown>[])[event]!);
  return eventKeys.indexOf(String(path[2])) < eventKeys.indexOf('orders');
}
