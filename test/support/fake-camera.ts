// A video file for Chromium's fake camera (--use-file-for-fake-video-capture): tickets' QR codes
// drawn large on white, as Y4M (4:2:0). Chromium plays the file at its frame rate from its first
// frame each time the camera starts, and loops it. A still picture (writeQrVideo) or scenes one
// after another (writeQrScenes: a code held in view so many frames, then nothing, then another),
// so a test says in frames what the camera shows and when, rather than in sleeps.
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/** What the camera shows for a number of frames: a QR code of the text, or white for null. */
export interface Scene {
  text: string | null;
  frames: number;
}

export interface VideoShape {
  width?: number;
  height?: number;
  /** Frames a second. */
  fps?: number;
}

/** One frame (Y4M's FRAME header, luma, two chroma planes) of a QR code of the text, or white. */
function qrFrame(text: string | null, width: number, height: number): Buffer {
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
  return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
}

/** A video of the scenes one after another. */
export function writeQrScenes(path: string, scenes: Scene[], shape: VideoShape = {}): void {
  const { width = 640, height = 480, fps = 10 } = shape;
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const parts: Buffer[] = [header];
  for (const scene of scenes) {
    const frame = qrFrame(scene.text, width, height);
    for (let i = 0; i < scene.frames; i += 1) parts.push(frame);
  }
  writeFileSync(path, Buffer.concat(parts));
}

/** A still QR code of the text, or an empty white picture for null. */
export function writeQrVideo(path: string, text: string | null, width = 640, height = 480, frames = 5): void {
  writeQrScenes(path, [{ text, frames }], { width, height });
}
