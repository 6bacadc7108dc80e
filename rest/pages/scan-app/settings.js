// The door the page is signed in to: its key, event and door (null: the main entrance), kept in
// the phone's storage. A door link carries them in the fragment (/scan#key=…&event=…&door=…),
// which never reaches a server log; the page reads it and wipes it from the address bar.

const storageKey = 'tessera-scan';

/** { key, eventId, doorId }, or null when signed out. */
export let settings = null;

/** Takes these settings for the calls to come, without keeping them (a sign-in being checked). */
export function useSettings(value) {
  settings = value;
}

export function saveSettings(value) {
  settings = value;
  localStorage.setItem(storageKey, JSON.stringify(value));
}

export function loadSettings() {
  try {
    settings = JSON.parse(localStorage.getItem(storageKey) || 'null');
  } catch {
    settings = null;
  }
}

export function forgetSettings() {
  localStorage.removeItem(storageKey);
  settings = null;
}

/** Saves the settings a door link's fragment holds, if any, and removes them from the address. */
export function readLink() {
  if (!location.hash.includes('key=')) return;
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get('key');
  const eventId = params.get('event');
  if (key && eventId) saveSettings({ key, eventId, doorId: params.get('door') || null });
  history.replaceState(null, '', location.pathname);
}
