// `tessera export`: an event's dataset as the API's export answers it, run as the operator (who
// holds every scope, so names and emails are in it; an erased person stays erased), written to
// stdout or to a file only its owner may read.
import { open } from 'node:fs/promises';
import { invokeAsOperator } from '../core/admin';
import { exportEventData } from '../core/exports';
import type { Ctx } from '../core/platform/context';
import type { AnyOperation } from '../core/platform/pipeline/operation';
import { isTableFile } from '../core/platform/pipeline/table-file';
import { tableFileBody, type Written } from '../rest/table-file-body';

export interface ExportRequest {
  eventId: string;
  dataset: string;
  format?: string;
  sponsorId?: string;
}

/**
 * The export as the command line names it: its text goes to invoke as a request's fields do, checked
 * there (an unknown dataset is refused as the API refuses it), so the operation is taken as any is.
 */
const exportAsSent: AnyOperation = exportEventData;

/** Writes the export to the file (0600), answering what was written; without a file, to stdout. */
export async function runExport(operator: Ctx, request: ExportRequest, to?: string) {
  const file = await invokeAsOperator(exportAsSent, operator, { ...request });
  if (!isTableFile(file)) throw new Error('The export answered no file.');
  const written: Written = { rows: 0 };
  const body = tableFileBody(file, written);
  if (!to) {
    for await (const piece of body) process.stdout.write(piece);
    return null;
  }
  const handle = await open(to, 'w', 0o600);
  try {
    // A file that was there keeps its old mode through open: made the owner's alone again.
    await handle.chmod(0o600);
    for await (const piece of body) await handle.write(piece);
  } finally {
    await handle.close();
  }
  return { file: to, dataset: request.dataset, format: file.format, rows: written.rows };
}
