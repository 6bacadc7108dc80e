// What the door scanner keeps on the phone (IndexedDB): the event's ticket list as the scan-list
// operation gives it (a hash of each code, never the code), where its sync stands, and the scans
// made offline until they are uploaded, with what the upload answered.

const dbName = 'tessera-scan';

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

let opened = null;
function open() {
  opened ??= new Promise((resolve, reject) => {
    const r = indexedDB.open(dbName, 1);
    r.onupgradeneeded = () => {
      const db = r.result;
      const tickets = db.createObjectStore('tickets', { keyPath: ['eventId', 'attendeeId'] });
      tickets.createIndex('byHash', ['eventId', 'codeSha256']);
      db.createObjectStore('meta');
      db.createObjectStore('queue', { keyPath: 'scanId' });
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return opened;
}

async function store(name, mode = 'readonly') {
  return (await open()).transaction(name, mode).objectStore(name);
}

export async function putTickets(eventId, rows) {
  const db = await open();
  const tx = db.transaction('tickets', 'readwrite');
  for (const row of rows) tx.objectStore('tickets').put({ ...row, eventId });
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

export async function ticketByHash(eventId, codeSha256) {
  return request((await store('tickets')).index('byHash').get([eventId, codeSha256]));
}

export async function ticketCount(eventId) {
  return request((await store('tickets')).count(IDBKeyRange.bound([eventId, ''], [eventId, '\uffff'])));
}

export async function getMeta(key) {
  return request((await store('meta')).get(key));
}

export async function setMeta(key, value) {
  return request((await store('meta', 'readwrite')).put(value, key));
}

/** The scans made offline, oldest first. */
export async function queued() {
  const all = await request((await store('queue')).getAll());
  return all.sort((a, b) => (a.scannedUtc < b.scannedUtc ? -1 : 1));
}

export async function putScan(scan) {
  return request((await store('queue', 'readwrite')).put(scan));
}

export async function forgetEverything() {
  const db = await open();
  for (const name of ['tickets', 'meta', 'queue']) {
    await request(db.transaction(name, 'readwrite').objectStore(name).clear());
  }
}

/** The hex SHA-256 of a ticket code, as the scan list holds it. */
export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
