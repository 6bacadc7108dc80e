// A video file for Chromium's fake camera (--use-file-for-fake-video-capture): a ticket's QR code
// drawn large on white, as Y4M (4:2:0, every frame the same picture). Chromium loops the file.
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/** A QR code of the text, or an empty white picture for null. */
export function writeQrVideo(path: string, text: string | null, width = 640, height = 480, frames = 5): void {
  const qr = QRCode.create(text ?? ' ', { errorCorrectionLevel: 'M' });
  const size = text === null ? 0 : qr.modules.size;
  const quiet = 4;
  const cell = Math.floor((Math.min(width, height) - 20) / (size + 2 * quiet));
  const side = cell * (size + 2 * quiet);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < size; row += 1)
    for (let col = 0; col < size; col += 1) {
      if (!qr.modules.get(row, col)) continue;
      for (let y = 0; y < cell; y += 1) {
        const start = (top + (row + quiet) * cell + y) * width + left + (col + quiet) * cell;
        luma.fill(16, start, start + cell);
      }
    }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
