// Splits an import file's JSON text, read in chunks, into its skeleton (everything but the orders
// of each event, which become []) and the text of each order on its own, so a large file is never
// held whole: each order is parsed, checked and kept compact as it comes (core/import/read-file.ts).
// The splitter only matches brackets and finds the orders arrays; JSON.parse reads every piece, so
// the file means what JSON.parse would make of it. When the pieces do not add up (a bracket left
// open or closed by the other kind, an empty item), the splitter says the file is broken and the
// caller asks JSON.parse of the whole text why.

export interface SplitHandlers {
  /** The top-level "events" key: a later one replaces the first (as JSON.parse keeps the last). */
  eventsStart(): void;
  /** Event `event`'s "orders" array starts: a later one of the same event replaces it. */
  ordersStart(event: number): void;
  /** The text of one order of event `event`, in the order of the file. */
  order(event: number, text: string): void;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;

/** One open object or array, with what the splitter needs of it at the top levels. */
interface Level {
  kind: typeof OPEN_OBJECT | typeof OPEN_ARRAY;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** In an object near the top: the last key read (decoded). */
  key: string | null;
  /** In an array: the index of the item being read. */
  index: number;
}

export class FileSplitter {
  private readonly levels: Level[] = [];
  private inString = false;
  private escaped = false;
  /** A key being read at the top levels (its raw text). */
  private keyText: string | null = null;
  private skeletonParts: string[] = [];
  /** Inside an orders array: its depth, its event, and the text of the item being read. */
  private orders: { depth: number; event: number; item: string[]; items: number } | null = null;
  broken = false;

  constructor(private readonly handlers: SplitHandlers) {}

  /** Reads the next chunk of the file's text. */
  write(chunk: string): void {
    if (this.broken) return;
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyText !== null) {
            this.keyEnds(chunk.slice(from, i + 1));
            from = i + 1;
          }
        }
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        const top = this.levels.at(-1);
        if (top?.kind === OPEN_OBJECT && top.expectKey) {
          top.expectKey = false;
          if (this.orders === null && this.levels.length <= 3) {
            this.keyText = '';
            from = this.cut(chunk, from, i);
          }
        }
        continue;
      }
      if (this.orders !== null) {
        const at = this.levels.length;
        if ((c === COMMA || c === CLOSE_ARRAY) && at === this.orders.depth) {
          this.orderEnds(chunk.slice(from, i), c === CLOSE_ARRAY);
          from = i + 1;
          if (c === CLOSE_ARRAY) {
            this.levels.pop();
            this.orders = null;
            this.skeletonParts.push(']');
          }
          continue;
        }
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const starting = this.startsOrders(c);
        this.levels.push({ kind: c, expectKey: c === OPEN_OBJECT, key: null, index: 0 });
        if (starting !== null) {
          // The skeleton keeps the array's brackets; its items go to the handler one by one.
          this.skeletonParts.push(chunk.slice(from, i + 1));
          from = i + 1;
          this.orders = { depth: this.levels.length, event: starting, item: [], items: 0 };
          this.handlers.ordersStart(starting);
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const open = this.levels.pop();
        if (open === undefined || open.kind !== (c === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY)) {
          this.broken = true;
          return;
        }
      } else if (c === COMMA) {
        const top = this.levels.at(-1);
        if (top?.kind === OPEN_OBJECT) top.expectKey = true;
        else if (top) top.index++;
      }
    }
    this.keep(chunk, from);
  }

  /** The skeleton's text once the whole file is read, or null when the file is broken. */
  end(): string | null {
    if (this.broken || this.inString || this.levels.length > 0 || this.orders !== null) return null;
    return this.skeletonParts.join('');
  }

  /** Keeps the rest of a chunk for the skeleton, or for the order being read. */
  private keep(chunk: string, from: number): void {
    if (from >= chunk.length) return;
    const rest = chunk.slice(from);
    if (this.keyText !== null) this.keyText += rest;
    else if (this.orders !== null) this.orders.item.push(rest);
    else this.skeletonParts.push(rest);
  }

  /** Ends the piece before `at` (skeleton text), starting a key's own text from `at`. */
  private cut(chunk: string, from: number, at: number): number {
    if (at > from) this.skeletonParts.push(chunk.slice(from, at));
    return at;
  }

  private keyEnds(last: string): void {
    const raw = this.keyText + last;
    this.keyText = null;
    this.skeletonParts.push(raw);
    let key: string | null;
    try {
      key = JSON.parse(raw) as string;
    } catch {
      key = null; // The skeleton's own parse will say why.
    }
    this.levels.at(-1)!.key = key;
    if (this.levels.length === 1 && key === 'events') this.handlers.eventsStart();
  }

  /** The event whose orders array this bracket starts, or null. */
  private startsOrders(c: number): number | null {
    if (c !== OPEN_ARRAY || this.levels.length !== 3) return null;
    const [root, events, event] = this.levels as [Level, Level, Level];
    if (root.kind !== OPEN_OBJECT || root.key !== 'events') return null;
    if (events.kind !== OPEN_ARRAY || event.kind !== OPEN_OBJECT || event.key !== 'orders') return null;
    return events.index;
  }

  private orderEnds(last: string, closing: boolean): void {
    const orders = this.orders!;
    orders.item.push(last);
    const text = orders.item.join('');
    orders.item = [];
    // "[]" (or whitespace in it) has no item; any other empty item is a stray comma.
    if (text.trim() === '') {
      if (closing && orders.items === 0) return;
      this.broken = true;
      return;
    }
    orders.items++;
    this.handlers.order(orders.event, text);
  }
}
