// The one reader of the forms pages post (application/x-www-form-urlencoded, no script needed). The
// form is read once per request and kept: the cross-site check reads it first when it needs the
// form's token (src/http/cross-site-forms.ts), the page's own handler then finds it read.
import type { Context } from 'koa';
import { readRequestText } from '../core/platform/request-body';

/** Larger than any form of the pages can be: 50 people with their answers. */
export const maxPageFormBytes = 64 * 1024;

/** The form sent, decoded by its Content-Encoding; null when it is larger than maxPageFormBytes. */
export async function readPageForm(ctx: Context): Promise<URLSearchParams | null> {
  const kept = ctx.state.pageForm as URLSearchParams | null | undefined;
  if (kept !== undefined) return kept;
  let form: URLSearchParams | null;
  try {
    form = new URLSearchParams(await readRequestText(ctx.req, maxPageFormBytes));
  } catch (error) {
    if ((error as { status?: number }).status !== 413) throw error;
    form = null;
  }
  ctx.state.pageForm = form;
  return form;
}
