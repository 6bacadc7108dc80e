// The door scanner (/scan): signs in to a door with a key (from a door link's fragment or typed),
// reads QR codes from the camera, checks tickets in by code, and when the network is gone decides
// against the ticket list kept on the phone, queues the scans and uploads them through the
// offline-scans operation once it is back. This is the page's start and its controls; each job
// is a module of its own beside it, and scripts/build.mjs bundles them (with the door's rules,
// core/checkin/door-rules.js, the server's own) into the one file served as /scan/scan.js.

import { setNetwork } from './answer.js';
import { call, problemText } from './api.js';
import { cameraOn, startCamera, stopCamera } from './camera.js';
import { checkInByCode } from './check-in.js';
import { refreshCounts } from './counts.js';
import { loadDoor } from './door.js';
import { offerSearch, search } from './name-search.js';
import { renderQueue, upload } from './offline-queue.js';
import { $ } from './page.js';
import { forgetEverything } from './scan-store.js';
import { forgetSettings, loadSettings, readLink, saveSettings, settings, useSettings } from './settings.js';
import { syncList } from './ticket-list.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function showSignIn(message = '') {
  $('scanner').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message;
  $('key').focus();
}

/** Signs in with the typed key, once a call with it shows it sees the event. */
async function signIn(event) {
  event.preventDefault();
  const key = $('key').value.trim();
  const eventId = $('event').value.trim();
  const doorId = $('door').value.trim() || null;
  if (!key) return showSignIn('Paste the door key.');
  if (!uuid.test(eventId)) return showSignIn('The event id is a UUID, as the door link holds it.');
  if (doorId && !uuid.test(doorId)) return showSignIn('The door id is a UUID, or leave it empty.');
  useSettings({ key, eventId, doorId });
  let res;
  try {
    res = await call('/check-ins/scan-list?limit=1');
  } catch {
    return showSignIn('No network: connect once to sign in.');
  }
  if (res.status === 404) return showSignIn('This key sees no such event.');
  if (res.status !== 200) return showSignIn(problemText(res));
  saveSettings(settings);
  $('key').value = '';
  await start();
}

async function start() {
  $('sign-in').hidden = true;
  $('scanner').hidden = false;
  setNetwork(navigator.onLine);
  await renderQueue();
  await loadDoor();
  await syncList();
  await offerSearch();
  refreshCounts();
  if (navigator.onLine) upload();
  startCamera(checkInByCode);
}

function wire() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('code-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = $('code').value;
    if (!value.trim()) return;
    await checkInByCode(value);
    $('code').select();
  });
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const q = $('search').value.trim();
    if (q.length >= 2) search(q);
  });
  $('camera-toggle').addEventListener('click', () =>
    cameraOn() ? stopCamera() : startCamera(checkInByCode),
  );
  $('upload').addEventListener('click', upload);
  $('sign-out').addEventListener('click', async () => {
    stopCamera();
    forgetSettings();
    await forgetEverything();
    showSignIn();
  });
  window.addEventListener('online', async () => {
    setNetwork(true);
    if (!settings) return;
    await upload();
    await loadDoor();
    await syncList();
    await offerSearch();
    refreshCounts();
  });
  window.addEventListener('offline', () => setNetwork(false));
  // A door link opened while the page is already open changes only the fragment.
  window.addEventListener('hashchange', () => {
    const before = settings;
    readLink();
    if (settings && settings !== before) start();
  });
  setInterval(() => settings && navigator.onLine && refreshCounts(), 15_000);
  setInterval(() => settings && navigator.onLine && loadDoor().then(syncList).then(upload), 60_000);
}

wire();
readLink();
loadSettings();
if ('serviceWorker' in navigator)
  navigator.serviceWorker.register('/scan/sw.js', { scope: '/scan' }).catch(() => {
    // Without it the page still scans; it only will not open without a network.
  });
if (settings) start();
else showSignIn();
