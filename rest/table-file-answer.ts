// The REST answer of an operation whose answer is a file: an attachment of the format's media
// type, streamed page by page as its rows are read, never kept by caches (it may hold personal data).
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { FileOutput, TableFile } from '../core/platform/pipeline/table-file';
import { tableFileBody } from './table-file-body';

export function sendTableFile(ctx: Context, output: FileOutput, file: TableFile): void {
  ctx.status = 200;
  ctx.type = output.formats[file.format]!;
  ctx.set('Content-Disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = Readable.from(tableFileBody(file));
}
