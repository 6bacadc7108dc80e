// The scans made offline: listed with what the phone answered and, once uploaded through the
// offline-scans operation, what the door answered.

import { answers, setNetwork } from './answer.js';
import { call, isNetworkError, problemText } from './api.js';
import { refreshCounts } from './counts.js';
import { $ } from './page.js';
import * as store from './scan-store.js';
import { settings } from './settings.js';

const batchSize = 500;

export async function renderQueue() {
  const scans = (await store.queued()).filter((s) => s.eventId === settings.eventId);
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

/** Uploads the scans waiting, a batch at a time, and keeps each one's answer. */
export async function upload() {
  const waiting = (await store.queued()).filter((s) => s.eventId === settings.eventId && !s.answer);
  if (waiting.length === 0) return;
  for (let i = 0; i < waiting.length; i += batchSize) {
    const batch = waiting.slice(i, i + batchSize);
    let res;
    try {
      res = await call('/check-ins/offline', {
        method: 'POST',
        // The same batch sent again (an answer lost on the way) is applied once.
        headers: { 'idempotency-key': await store.sha256Hex(batch.map((s) => s.scanId).join(',')) },
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
      if (scan) await store.putScan({ ...scan, answer });
    }
  }
  await renderQueue();
  refreshCounts();
}
