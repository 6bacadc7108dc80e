// The camera and the QR codes in its view: frames read with the browser's BarcodeDetector where
// it reads QR codes, else with jsQR (/scan/jsqr.js, a global of its own), a few times a second;
// each code held in view is handed on once (sightings.js).
import { $ } from './page.js';
import { sightings } from './sightings.js';

const readEveryMs = 150;
let stream = null;
let detector = null;
let onCode = null;
let busy = false;
// The codes in the camera's view: each is read once a presentation.
const presented = sightings();
const canvas = document.createElement('canvas');
const context2d = canvas.getContext('2d', { willReadFrequently: true });

export const cameraOn = () => stream !== null;

/** Starts the camera, handing each code newly in view to `handle` (one at a time). */
export async function startCamera(handle) {
  onCode = handle;
  const state = $('camera-state');
  if (!navigator.mediaDevices?.getUserMedia) {
    state.textContent = 'This browser gives no camera here: type the code below.';
    return;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: 'environment' },
      audio: false,
    });
  } catch (e) {
    state.textContent =
      e.name === 'NotAllowedError'
        ? 'The camera was not allowed: allow it in the browser, or type the code below.'
        : `No camera (${e.message}): type the code below.`;
    return;
  }
  const video = $('video');
  video.hidden = false;
  video.srcObject = stream;
  // A code in view when the camera starts is a new presentation.
  presented.reset();
  await video.play().catch(() => {});
  if ('BarcodeDetector' in window) {
    const formats = await window.BarcodeDetector.getSupportedFormats().catch(() => []);
    if (formats.includes('qr_code')) detector = new window.BarcodeDetector({ formats: ['qr_code'] });
  }
  state.textContent = 'Camera on: hold a ticket’s QR code in view.';
  $('camera-toggle').textContent = 'Stop camera';
  watch();
}

export function stopCamera() {
  for (const track of stream?.getTracks() || []) track.stop();
  stream = null;
  $('video').srcObject = null;
  $('video').hidden = true;
  $('camera-state').textContent = 'Camera off.';
  $('camera-toggle').textContent = 'Start camera';
}

/** The codes in the camera's frame now (the browser's detector gives every one, jsQR one at most). */
async function readFrame() {
  const video = $('video');
  if (video.readyState < 2 || video.videoWidth === 0) return [];
  if (detector) return (await detector.detect(video)).map((found) => found.rawValue).filter(Boolean);
  if (!window.jsQR) return [];
  const scale = Math.min(1, 800 / video.videoWidth);
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  context2d.drawImage(video, 0, 0, canvas.width, canvas.height);
  const image = context2d.getImageData(0, 0, canvas.width, canvas.height);
  const found = window.jsQR(image.data, canvas.width, canvas.height, { inversionAttempts: 'dontInvert' });
  return found?.data ? [found.data] : [];
}

function watch() {
  if (!stream) return;
  setTimeout(async () => {
    try {
      // A code held in view is read once; again only after it has left the view (sightings.js).
      const fresh = presented.seen(await readFrame(), performance.now());
      if (fresh && !busy) {
        busy = true;
        try {
          await onCode(fresh);
        } finally {
          busy = false;
        }
      }
    } finally {
      watch();
    }
  }, readEveryMs);
}
