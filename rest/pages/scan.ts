// /scan: the door staff's scanner, one page and its files served by the service itself (no CDN):
// its script (its modules in scan-app/ bundled into one file by the build, dist/scan-app/scan.js)
// and style, jsQR from its npm package (the decoder where the browser has no BarcodeDetector), a
// web app manifest and icons so a phone can install it, and a service worker that keeps those
// files so the page opens without a network. The key never travels in an address
// the server sees: a door link carries it in the fragment (/scan#key=…), which the page's script
// reads, keeps in the phone's storage and wipes from the address bar.
import { keyMarker } from '../../core/platform/keys';
import { type HeldFile, heldFile } from '../held-file';
import { html } from './html';
import { type PageFileName, pageFiles } from './page-files';

// The page's own scripts and style only; API calls to this origin; the camera is a MediaStream
// (getUserMedia, allowed to this origin alone by Permissions-Policy); frames are read on a canvas.
export const scanPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
export const scanPermissions = 'camera=(self), microphone=(), geolocation=()';

const script = 'application/javascript; charset=utf-8';
/** The page's files by the name it asks for: which packaged file (page-files.ts), of which type. */
const assetFiles: Record<string, { file: PageFileName; type: string }> = {
  // The page's modules and the server's own rules of a door (core/checkin/door-rules.js), in one file.
  'scan.js': { file: 'scan-app/scan.js', type: script },
  'scan.css': { file: 'scan-app/scan.css', type: 'text/css; charset=utf-8' },
  'sw.js': { file: 'scan-app/sw.js', type: script },
  'icon.svg': { file: 'scan-app/icon.svg', type: 'image/svg+xml' },
  'icon-192.png': { file: 'scan-app/icon-192.png', type: 'image/png' },
  'icon-512.png': { file: 'scan-app/icon-512.png', type: 'image/png' },
  'manifest.webmanifest': { file: 'scan-app/manifest.webmanifest', type: 'application/manifest+json' },
  'jsqr.js': { file: 'jsQR.js', type: script },
};
const loaded = new Map<string, HeldFile>();

/** One of the page's files by name, read once; null for any other name. */
export function scanAsset(name: string): HeldFile | null {
  const spec = Object.hasOwn(assetFiles, name) ? assetFiles[name] : undefined;
  if (!spec) return null;
  let asset = loaded.get(name);
  if (!asset) {
    asset = heldFile(spec.type, pageFiles.read(spec.file));
    loaded.set(name, asset);
  }
  return asset;
}

export function scanPage(): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tessera door scanner</title>
<meta name="theme-color" content="#1d2330">
<link rel="manifest" href="/scan/manifest.webmanifest">
<link rel="icon" href="/scan/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/scan/icon-192.png">
<link rel="stylesheet" href="/scan/scan.css">
<script src="/scan/jsqr.js" defer></script>
<script src="/scan/scan.js" type="module"></script>
</head>
<body>
<header class="bar"><h1>Door scanner</h1><p id="where" class="where"></p>
<p id="network" class="network" role="status"></p></header>

<main>
<section id="sign-in" class="panel" aria-labelledby="sign-in-title" hidden>
  <h2 id="sign-in-title">Sign in to a door</h2>
  <p>Open the door link the organiser sent you, or paste its key here. The key stays on this phone.</p>
  <form id="sign-in-form" novalidate>
    <label for="key">Door key</label>
    <input id="key" name="key" type="password" autocomplete="off" required aria-describedby="key-help">
    <p id="key-help" class="help">It starts with ${keyMarker}. It needs check-in rights (checkins:write), and events:read for the door’s rules offline.</p>
    <label for="event">Event id</label>
    <input id="event" name="event" autocomplete="off" required>
    <label for="door">Door id <span class="optional">(optional: the main entrance when empty)</span></label>
    <input id="door" name="door" autocomplete="off">
    <p id="sign-in-error" class="error" role="alert"></p>
    <button type="submit">Start scanning</button>
  </form>
</section>

<section id="scanner" class="panel" aria-label="Scanner" hidden>
  <div id="answer" class="answer idle" role="status" aria-live="assertive" aria-atomic="true">
    <p id="answer-word" class="word">Ready</p><p id="answer-detail" class="detail">Show a ticket's QR code to the camera.</p>
  </div>

  <div class="cols"><div class="camera">
    <video id="video" playsinline muted aria-label="Camera view" hidden></video>
    <p id="camera-state" class="help"></p>
    <div class="row">
      <button id="camera-toggle" type="button">Start camera</button>
      <fieldset class="direction"><legend>Direction</legend>
        <label><input type="radio" name="direction" value="in" checked> In</label>
        <label><input type="radio" name="direction" value="out"> Out</label>
      </fieldset>
    </div>
  </div>

  <div class="tools"><form id="code-form" class="row" novalidate>
    <label for="code">Ticket code</label>
    <input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false">
    <button type="submit">Check</button>
  </form>

  <form id="search-form" class="search" role="search" hidden>
    <label for="search">Find a name</label>
    <input id="search" name="q" autocomplete="off" minlength="2">
    <button type="submit">Search</button>
    <ul id="search-results" class="results" aria-live="polite"></ul>
  </form>

  <section class="counts" aria-labelledby="counts-title">
    <h2 id="counts-title">At this door</h2>
    <dl id="counts"><div><dt>Inside</dt><dd id="inside">–</dd></div><div><dt>Capacity</dt><dd id="capacity">–</dd></div>
    <div><dt>Admitted</dt><dd id="admitted">–</dd></div><div><dt>Refused</dt><dd id="refused">–</dd></div></dl>
    <p id="door-state" class="help" role="status" hidden></p>
    <p id="list-state" class="help"></p>
  </section>

  <section class="queue" aria-labelledby="queue-title">
    <h2 id="queue-title">Scans made offline</h2>
    <p id="queue-state" class="help" role="status">None waiting.</p>
    <ol id="queue" class="results"></ol>
    <button id="upload" type="button">Upload now</button>
  </section>

  <button id="sign-out" type="button" class="quiet">Sign out of this door</button>
  </div></div>
</section>
<noscript><p class="panel">The scanner needs JavaScript.</p></noscript>
</main>
</body></html>`.text;
}
