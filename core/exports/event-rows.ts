// The rows of one dataset of an event, read through its list operation in bounded pages, so a long
// export holds one page at a time; the export reads them in steps on a snapshot of its own
// (core/platform/pipeline/long-read.ts), one page of a step's rows a step. A row is written
// once however the list shows it; leads of a sponsor whose download is closed are left out.
import type { Ctx } from '../platform/context';
import { invoke } from '../platform/pipeline/invoke';
import { rowsAStep } from '../platform/pipeline/long-read';
import type { Dataset, ListOperation, ListPage } from './datasets';

export interface RowSource {
  dataset: Dataset;
  /** The list operation and its input (without paging). */
  list: ListOperation;
  input: Record<string, unknown>;
  /** Whether an item is written (leads of a closed sponsor are not). */
  keep(item: unknown): boolean;
}

/** One page of the list, from the cursor (the first page without one): a step's rows, or fewer. */
export async function readPage(
  ctx: Ctx,
  source: RowSource,
  cursor: string | null,
  limit = Math.min(source.dataset.pageSize, rowsAStep),
): Promise<ListPage> {
  const input = { ...source.input, limit, ...(cursor ? { cursor } : {}) };
  return (await invoke(source.list, ctx, input)).data;
}

/** Every row, page by page. */
export async function* rowPages(ctx: Ctx, source: RowSource): AsyncGenerator<unknown[]> {
  const seen = new Set<string>();
  let page = await readPage(ctx, source, null);
  for (;;) {
    const rows = page.data.filter((item) => {
      const id = source.dataset.idOf(item);
      if (seen.has(id) || !source.keep(item)) return false;
      seen.add(id);
      return true;
    });
    if (rows.length > 0) yield source.dataset.extend ? await source.dataset.extend(ctx, rows) : rows;
    if (!page.nextCursor) return;
    page = await readPage(ctx, source, page.nextCursor);
  }
}
