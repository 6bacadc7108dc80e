// The door scanner (/scan): signs in to a door with a key (from a door link's fragment or typed),
// reads QR codes from the camera (the browser's BarcodeDetector, else jsQR), checks tickets in by
// code, and when the network is gone decides against the ticket list kept on the phone, queues the
// scans and uploads them through the offline-scans operation once it is back. An ES module: the
// door's rules are the server's own file (core/checkin/door-rules.js, served at /scan/door-rules.js).
import { entryAtDoor, refusalAtDoor } from '/scan/door-rules.js';
import { sightings } from '/scan/sightings.js';

(() => {
  const $ = (id) => document.getElementById(id);
  const api = '/api/v1';
  const settingsKey = 'tessera-scan';

  // What each answer shows: the big word, the reason in words, and its colour.
  const answers = {
    welcome: ['Welcome', 'First time in: let them in.', 'welcome'],
    again: ['Again', 'Already checked in: let them in.', 'neutral'],
    out: ['Out', 'Going out: recorded.', 'neutral'],
    cancelled: ['Cancelled', 'Refused: this ticket was cancelled.', 'refused'],
    unpaid: ['Unpaid', 'Refused: this ticket is not paid yet.', 'refused'],
    notOnList: ['Not on list', 'Refused: this ticket type may not enter at this door.', 'refused'],
    noAddOn: ['No add-on', 'Refused: this door needs an add-on the ticket does not hold.', 'refused'],
    full: ['Full', 'Refused: the door is at capacity.', 'refused'],
    noReentry: ['No re-entry', 'Refused: no coming back in at this door once out.', 'refused'],
    unknown: ['Unknown', 'Refused: not a ticket of this event.', 'refused'],
    notACode: ['Not a ticket', 'Refused: this is not a ticket code.', 'refused'],
  };

  let settings = null; // { key, eventId, doorId }
  let door = null; // the door as listDoors gives it, when the key may read it
  let stream = null;
  let detector = null;
  let busy = false;
  // The codes in the camera's view: each is read once a presentation.
  const presented = sightings();
  let audio = null;

  // ---- settings: the key from a link's fragment never reaches a server log -----------------------

  function readLink() {
    if (!location.hash.includes('key=')) return;
    const params = new URLSearchParams(location.hash.slice(1));
    const key = params.get('key');
    const eventId = params.get('event');
    if (key && eventId) saveSettings({ key, eventId, doorId: params.get('door') || null });
    history.replaceState(null, '', location.pathname);
  }

  function saveSettings(value) {
    settings = value;
    localStorage.setItem(settingsKey, JSON.stringify(value));
  }

  function loadSettings() {
    try {
      settings = JSON.parse(localStorage.getItem(settingsKey) || 'null');
    } catch {
      settings = null;
    }
  }

  // ---- the API -----------------------------------------------------------------------------------

  /** A call to the event's API; throws a TypeError when there is no network. */
  async function call(path, options = {}) {
    const headers = { authorization: `Bearer ${settings.key}`, ...(options.headers || {}) };
    if (options.body) headers['content-type'] = 'application/json';
    const res = await fetch(`${api}/events/${encodeURIComponent(settings.eventId)}${path}`, {
      method: options.method || 'GET',
      headers,
      body: options.body ? JSON.stringify(options.body) : undefined,
      cache: 'no-store',
    });
    const body = res.status === 204 ? null : await res.json().catch(() => null);
    return { status: res.status, body };
  }

  const isNetworkError = (e) => e instanceof TypeError;

  function setNetwork(online) {
    const badge = $('network');
    badge.textContent = online ? 'Online' : 'Offline: scans are kept on this phone';
    badge.classList.toggle('offline', !online);
  }

  // ---- the answer ------------------------------------------------------------------------------------

  function show(result, details = {}) {
    const [word, reason, colour] = answers[result] || answers.unknown;
    const box = $('answer');
    box.className = `answer ${colour}${details.provisional ? ' provisional' : ''}`;
    $('answer-word').textContent = word;
    const who = details.name ? `${details.name} · ` : '';
    const type = details.ticketTypeName ? `${details.ticketTypeName}. ` : '';
    const provisional = details.provisional
      ? ' Offline answer, provisional: the door confirms it when the scan is uploaded.'
      : '';
    $('answer-detail').textContent = `${who}${type}${reason}${provisional}`;
    signal(colour);
  }

  function showProblem(text) {
    const box = $('answer');
    box.className = 'answer refused';
    $('answer-word').textContent = 'Not checked';
    $('answer-detail').textContent = text;
    signal('refused');
  }

  /** A short beep and a buzz: one for in, a longer low one for a refusal. Cheap, and skipped if unavailable. */
  function signal(colour) {
    try {
      navigator.vibrate?.(colour === 'refused' ? [200, 100, 200] : [60]);
      audio ??= new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = colour === 'refused' ? 220 : 880;
      gain.gain.value = 0.08;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + (colour === 'refused' ? 0.35 : 0.12));
    } catch {
      // No sound or vibration on this device: the colour says it.
    }
  }

  const nameOf = (person) =>
    person && (person.firstName || person.lastName)
      ? [person.firstName, person.lastName].filter(Boolean).join(' ')
      : null;

  // ---- reading a scan --------------------------------------------------------------------------------

  /** The code in a scan: the code itself (case, spaces, dashes ignored) or an address ending in /t/{code}. */
  function ticketCodeIn(scanned) {
    const text = scanned.trim();
    const fromAddress = /\/t\/([A-Za-z2-7]{26})(?:[/?#.].*)?$/.exec(text);
    const code = (fromAddress ? fromAddress[1] : text.replace(/[\s-]/g, '')).toUpperCase();
    return /^[A-Z2-7]{26}$/.test(code) ? code : null;
  }

  const direction = () => document.querySelector('input[name=direction]:checked').value;

  async function onScanned(text) {
    const code = ticketCodeIn(text);
    if (!code) return show('notACode');
    const dir = direction();
    try {
      const res = await call('/check-ins/by-code', {
        method: 'POST',
        body: { ticketCode: code, direction: dir, ...(settings.doorId ? { doorId: settings.doorId } : {}) },
      });
      setNetwork(true);
      if (res.status === 200) {
        show(res.body.result, {
          name: nameOf(res.body.attendee),
          ticketTypeName: res.body.attendee.ticketTypeName,
        });
        await rememberInside(res.body.attendee.attendeeId, res.body.firstCheckInUtc, res.body.admitted, dir);
        refreshCounts();
      } else if (res.status === 404 && res.body?.code === 'attendeeNotFound') show('unknown');
      else showProblem(problemText(res));
    } catch (e) {
      if (!isNetworkError(e)) throw e;
      setNetwork(false);
      await scanOffline(code, dir);
    }
  }

  function problemText(res) {
    if (res.status === 401) return 'This door key is no longer valid: ask the organiser for a new link.';
    if (res.status === 403) return 'This door key has no check-in rights (checkins:write).';
    return res.body?.detail || `The service answered ${res.status}.`;
  }

  // ---- offline -------------------------------------------------------------------------------------------

  const insideKey = (attendeeId) => `in:${settings.eventId}:${settings.doorId || 'main'}:${attendeeId}`;

  /** Whether this door is the main entrance, where a ticket's firstCheckInUtc was taken. */
  const atMainEntrance = () => (door ? door.main : !settings.doorId);

  /**
   * Where the ticket's holder stands at this door as far as the phone knows: what this phone saw,
   * else, at the main entrance, in once already (firstCheckInUtc) and taken to be inside still.
   */
  async function presenceOnPhone(attendeeId, firstCheckInUtc) {
    const inside = await ScanStore.getMeta(insideKey(attendeeId));
    if (inside !== undefined) return inside ? 'inside' : 'out';
    return firstCheckInUtc && atMainEntrance() ? 'inside' : 'never';
  }

  /** Keeps what a scan did to the holder's presence at this door, as the server's rules change it. */
  async function rememberInside(attendeeId, firstCheckInUtc, admitted, dir) {
    if (dir === 'out') {
      // Going out of a door one is not inside changes nothing (a later scan in is still a first).
      if ((await presenceOnPhone(attendeeId, firstCheckInUtc)) === 'inside')
        await ScanStore.setMeta(insideKey(attendeeId), false);
    } else if (admitted) await ScanStore.setMeta(insideKey(attendeeId), true);
  }

  /**
   * The scanner rules as the phone can apply them: the door's own (door-rules.js, the server's)
   * against the ticket list and who this phone saw come and go. Only the door's count is left out
   * (full is known to the server alone). A door whose rules the key may not read admits every valid
   * ticket here, and the page says so.
   */
  async function decideOffline(ticket, dir) {
    if (dir === 'out') return 'out';
    const rules = door || { ticketTypeIds: [], addOnIds: [], reentry: true };
    const refusal = refusalAtDoor(rules, ticket);
    if (refusal) return refusal;
    const entry = entryAtDoor(rules, await presenceOnPhone(ticket.attendeeId, ticket.firstCheckInUtc));
    return { firstIn: 'welcome', backIn: 'again' }[entry] || entry;
  }

  async function scanOffline(code, dir) {
    const ticket = await ScanStore.ticketByHash(settings.eventId, await ScanStore.sha256Hex(code));
    if (!ticket) {
      const known = await ScanStore.ticketCount(settings.eventId);
      return showProblem(
        known > 0
          ? 'Offline: this code is not in the ticket list on this phone. Not let in; try again when online.'
          : 'Offline, and no ticket list on this phone yet: connect once to download it.',
      );
    }
    const result = await decideOffline(ticket, dir);
    const admitted = ['welcome', 'again'].includes(result);
    await rememberInside(ticket.attendeeId, ticket.firstCheckInUtc, admitted, dir);
    await ScanStore.putScan({
      scanId: crypto.randomUUID(),
      eventId: settings.eventId,
      attendeeId: ticket.attendeeId,
      doorId: settings.doorId,
      direction: dir,
      scannedUtc: new Date().toISOString(),
      name: nameOf(ticket),
      ticketTypeName: ticket.ticketTypeName,
      provisional: result,
      answer: null,
    });
    show(result, { name: nameOf(ticket), ticketTypeName: ticket.ticketTypeName, provisional: true });
    await renderQueue();
  }

  async function renderQueue() {
    const scans = (await ScanStore.queued()).filter((s) => s.eventId === settings.eventId);
    const list = $('queue');
    list.replaceChildren();
    for (const scan of scans) {
      const item = document.createElement('li');
      const time = new Date(scan.scannedUtc).toLocaleTimeString();
      const who = scan.name || scan.ticketTypeName || 'Ticket';
      const local = answers[scan.provisional][0];
      let state = 'waiting to upload';
      if (scan.answer?.error) state = `upload answered: ${scan.answer.error.detail}`;
      else if (scan.answer) state = `upload answered: ${answers[scan.answer.result][0]}`;
      item.textContent = `${time} · ${who} · ${scan.direction} · on the phone: ${local} · ${state}`;
      if (scan.answer) item.className = scan.answer.admitted || scan.answer.result === 'out' ? 'ok' : 'no';
      list.append(item);
    }
    const waiting = scans.filter((s) => !s.answer).length;
    $('queue-state').textContent =
      scans.length === 0
        ? 'None waiting.'
        : waiting > 0
          ? `${waiting} scan(s) waiting to upload.`
          : `All ${scans.length} offline scan(s) uploaded.`;
    $('upload').hidden = waiting === 0;
  }

  async function upload() {
    const waiting = (await ScanStore.queued()).filter((s) => s.eventId === settings.eventId && !s.answer);
    if (waiting.length === 0) return;
    for (let i = 0; i < waiting.length; i += 500) {
      const batch = waiting.slice(i, i + 500);
      let res;
      try {
        res = await call('/check-ins/offline', {
          method: 'POST',
          // The same batch sent again (an answer lost on the way) is applied once.
          headers: { 'idempotency-key': await ScanStore.sha256Hex(batch.map((s) => s.scanId).join(',')) },
          body: {
            scans: batch.map((s) => ({
              scanId: s.scanId,
              attendeeId: s.attendeeId,
              direction: s.direction,
              scannedUtc: s.scannedUtc,
              ...(s.doorId ? { doorId: s.doorId } : {}),
            })),
          },
        });
      } catch (e) {
        if (!isNetworkError(e)) throw e;
        setNetwork(false);
        return;
      }
      setNetwork(true);
      if (res.status !== 200) {
        $('queue-state').textContent = `The upload was refused: ${problemText(res)}`;
        return;
      }
      for (const answer of res.body.data) {
        const scan = batch.find((s) => s.scanId === answer.scanId);
        if (scan) await ScanStore.putScan({ ...scan, answer });
      }
    }
    await renderQueue();
    refreshCounts();
  }

  // ---- the ticket list, the counts, the door -------------------------------------------------------------

  async function syncList() {
    const sinceKey = `since:${settings.eventId}`;
    const since = await ScanStore.getMeta(sinceKey);
    let newest = since || '';
    let cursor = null;
    try {
      do {
        const query = new URLSearchParams({ limit: '500' });
        if (since) query.set('updatedSince', since);
        if (cursor) query.set('cursor', cursor);
        const res = await call(`/check-ins/scan-list?${query}`);
        if (res.status !== 200) {
          $('list-state').textContent = `The ticket list could not be downloaded: ${problemText(res)}`;
          return;
        }
        await ScanStore.putTickets(settings.eventId, res.body.data);
        for (const row of res.body.data) {
          if (row.updatedUtc > newest) newest = row.updatedUtc;
          // Names come only to a key that may read people: then the name search is worth offering.
          if (row.personalData === 'included') await ScanStore.setMeta(`names:${settings.eventId}`, true);
        }
        cursor = res.body.nextCursor;
      } while (cursor);
    } catch (e) {
      if (!isNetworkError(e)) throw e;
      setNetwork(false);
      return;
    }
    if (newest) await ScanStore.setMeta(sinceKey, newest);
    const count = await ScanStore.ticketCount(settings.eventId);
    $('list-state').textContent =
      `Ticket list on this phone: ${count} ticket(s), checked at ${new Date().toLocaleTimeString()}.`;
    $('list-state').dataset.count = String(count);
  }

  /** The door scanned at among the event's doors: the one named, else the main entrance (the server's choice). */
  function pickDoor(doors) {
    if (settings.doorId) return doors.find((d) => d.doorId === settings.doorId) || null;
    const entrances = doors.filter((d) => d.kind === 'entrance');
    return entrances.find((d) => d.main) || entrances[0] || null;
  }

  /** The door's name and rules (listDoors, events:read), kept on the phone for offline answers. */
  async function loadDoor() {
    const keptKey = `door:${settings.eventId}:${settings.doorId || 'main'}`;
    let note = '';
    try {
      const res = await call('/doors');
      if (res.status === 200) {
        door = pickDoor(res.body.data);
        await ScanStore.setMeta(keptKey, door);
        if (!door)
          note = settings.doorId
            ? 'This event has no such door: scans will be refused. Ask the organiser for a new link.'
            : 'This event has no entrance door: scans will be refused.';
      } else {
        door = (await ScanStore.getMeta(keptKey)) || null;
        if (!door)
          note =
            res.status === 403
              ? 'This key may not read the door’s rules (events:read): offline, every valid ticket is let in provisionally.'
              : `The door could not be read: ${problemText(res)}`;
      }
    } catch (e) {
      if (!isNetworkError(e)) throw e;
      door = (await ScanStore.getMeta(keptKey)) || null;
    }
    $('where').textContent = door ? door.name : settings.doorId ? 'Door' : 'Main entrance';
    $('door-state').textContent = note;
    $('door-state').hidden = note === '';
  }

  async function refreshCounts() {
    try {
      const res = await call('/check-ins/summary');
      if (res.status !== 200) {
        $('counts').hidden = true;
        return;
      }
      const doorId = settings.doorId || door?.doorId;
      const counts = res.body.doors.find((d) => d.doorId === doorId) || res.body.doors[0];
      if (!counts) return;
      $('inside').textContent = String(counts.inside);
      $('capacity').textContent = counts.capacity === null ? 'No limit' : String(counts.capacity);
      $('capacity').classList.toggle('words', counts.capacity === null);
      $('admitted').textContent = String(counts.admitted);
      $('refused').textContent = String(counts.refused);
    } catch (e) {
      if (!isNetworkError(e)) throw e;
    }
  }

  async function offerSearch() {
    try {
      const res = await call('/attendees/search?q=zz&limit=1');
      const mayReadNames = (await ScanStore.getMeta(`names:${settings.eventId}`)) === true;
      $('search-form').hidden = !(res.status === 200 && mayReadNames);
    } catch {
      $('search-form').hidden = true;
    }
  }

  async function search(q) {
    const list = $('search-results');
    list.replaceChildren();
    const res = await call(`/attendees/search?${new URLSearchParams({ q, limit: '10' })}`);
    if (res.status !== 200) return showProblem(problemText(res));
    if (res.body.data.length === 0) {
      const none = document.createElement('li');
      none.textContent = 'Nobody found by that name.';
      list.append(none);
    }
    for (const person of res.body.data) {
      const item = document.createElement('li');
      item.textContent = `${nameOf(person) || 'Name withheld'} · ${person.ticketTypeName}`;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Check in';
      button.setAttribute('aria-label', `Check in ${nameOf(person) || 'this ticket'}`);
      button.addEventListener('click', () => checkInById(person.attendeeId));
      item.append(button);
      list.append(item);
    }
  }

  async function checkInById(attendeeId) {
    const res = await call(`/attendees/${attendeeId}/check-in`, {
      method: 'POST',
      body: { direction: direction(), ...(settings.doorId ? { doorId: settings.doorId } : {}) },
    });
    if (res.status !== 200) return showProblem(problemText(res));
    show(res.body.result, {
      name: nameOf(res.body.attendee),
      ticketTypeName: res.body.attendee.ticketTypeName,
    });
    await rememberInside(attendeeId, res.body.firstCheckInUtc, res.body.admitted, direction());
    refreshCounts();
  }

  // ---- the camera ----------------------------------------------------------------------------------------

  const canvas = document.createElement('canvas');
  const context2d = canvas.getContext('2d', { willReadFrequently: true });

  async function startCamera() {
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

  function stopCamera() {
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
            await onScanned(fresh);
          } finally {
            busy = false;
          }
        }
      } finally {
        watch();
      }
    }, 150);
  }

  // ---- start -------------------------------------------------------------------------------------------

  function showSignIn(message = '') {
    $('scanner').hidden = true;
    $('sign-in').hidden = false;
    $('sign-in-error').textContent = message;
    $('key').focus();
  }

  async function signIn(event) {
    event.preventDefault();
    const key = $('key').value.trim();
    const eventId = $('event').value.trim();
    const doorId = $('door').value.trim() || null;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!key) return showSignIn('Paste the door key.');
    if (!uuid.test(eventId)) return showSignIn('The event id is a UUID, as the door link holds it.');
    if (doorId && !uuid.test(doorId)) return showSignIn('The door id is a UUID, or leave it empty.');
    settings = { key, eventId, doorId };
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
    startCamera();
  }

  function wire() {
    $('sign-in-form').addEventListener('submit', signIn);
    $('code-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const value = $('code').value;
      if (!value.trim()) return;
      await onScanned(value);
      $('code').select();
    });
    $('search-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const q = $('search').value.trim();
      if (q.length >= 2) search(q);
    });
    $('camera-toggle').addEventListener('click', () => (stream ? stopCamera() : startCamera()));
    $('upload').addEventListener('click', upload);
    $('sign-out').addEventListener('click', async () => {
      stopCamera();
      localStorage.removeItem(settingsKey);
      await ScanStore.forgetEverything();
      settings = null;
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
})();
