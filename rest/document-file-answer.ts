// The REST answer of an operation whose answer is one whole file (an invoice's PDF): its bytes as
// an attachment of the format's media type, named as the file is, never kept by shared caches (it
// may hold personal data).
import type { Context } from 'koa';
import type { DocumentFile } from '../core/platform/pipeline/document-file';
import type { FileOutput } from '../core/platform/pipeline/table-file';

export function sendDocumentFile(ctx: Context, output: FileOutput, file: DocumentFile): void {
  ctx.status = 200;
  ctx.type = output.formats[file.format]!;
  ctx.set('Content-Disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = file.bytes;
}
