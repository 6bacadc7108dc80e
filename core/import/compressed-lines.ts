// Lines of text kept compressed a block at a time: outside the JavaScript heap, a small fraction of
// the text, read back a block at a time. The import keeps its orders this way (stored-orders.ts) and
// the rows it plans of them (stored-rows.ts).
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export class CompressedLines implements Iterable<string> {
  private blocks: Buffer[] = [];
  private pending: string[] = [];

  /** `perBlock`: lines compressed together, enough to compress well, few enough to read back at once. */
  constructor(private readonly perBlock: number) {}

  /** A line holds no line break (JSON.stringify writes none). */
  add(line: string): void {
    this.pending.push(line);
    if (this.pending.length === this.perBlock) this.seal();
  }

  *[Symbol.iterator](): Iterator<string> {
    this.seal();
    for (const block of this.blocks) yield* inflateRawSync(block).toString('utf8').split('\n');
  }

  private seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(deflateRawSync(Buffer.from(this.pending.join('\n'), 'utf8'), { level: 1 }));
    this.pending = [];
  }
}
