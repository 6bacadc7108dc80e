// The rows of one dataset of an event, read through its list operation in bounded pages (the
// list's largest), each page its own read, so a long export holds one page at a time and another
// process (issue 29) can take over the loop. A row the list shows again because it changed while
// the export ran is written once; leads of a sponsor whose download is closed are left out.
import type { Ctx } from '../platform/context';
import { invoke } from '../platform/pipeline/invoke';
import type { AnyOperation } from '../platform/pipeline/operation';
import type { Dataset } from './datasets';

interface ListPage {
  data: unknown[];
  nextCursor: string | null;
}

export interface RowSource {
  dataset: Dataset;
  /** The list operation and its input (without paging). */
  list: AnyOperation;
  input: Record<string, unknown>;
  /** Whether an item is written (leads of a closed sponsor are not). */
  keep(item: unknown): boolean;
}

/** One page of the list, from the cursor (the first page without one). */
export async function readPage(ctx: Ctx, source: RowSource, cursor: string | null): Promise<ListPage> {
  const input = { ...source.input, limit: source.dataset.pageSize, ...(cursor ? { cursor } : {}) };
  return (await invoke(source.list, ctx, input)).data as ListPage;
}

/** Every row, page by page, starting with the first page when it is already read. */
export async function* rowPages(ctx: Ctx, source: RowSource, first?: ListPage): AsyncGenerator<unknown[]> {
  const seen = new Set<string>();
  let page = first ?? (await readPage(ctx, source, null));
  for (;;) {
    const rows = page.data.filter((item) => {
      const id = source.dataset.idOf(item);
      if (seen.has(id) || !source.keep(item)) return false;
      seen.add(id);
      return true;
    });
    if (rows.length > 0) yield rows;
    if (!page.nextCursor) return;
    page = await readPage(ctx, source, page.nextCursor);
  }
}
