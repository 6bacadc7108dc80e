// What the door staff see and hear: the answer to a scan (a big word, the reason in words, its
// colour, a beep and a buzz), and whether the page is online.
import { $ } from './page.js';

/** What each answer shows: the big word, the reason in words, and its colour. */
export const answers = {
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

let audio = null;

/** Shows a scan's result, with who it is, and whether it was decided offline (provisional). */
export function show(result, details = {}) {
  const [word, reason, colour] = answers[result] || answers.unknown;
  $('answer').className = `answer ${colour}${details.provisional ? ' provisional' : ''}`;
  $('answer-word').textContent = word;
  const who = details.name ? `${details.name} · ` : '';
  const type = details.ticketTypeName ? `${details.ticketTypeName}. ` : '';
  const provisional = details.provisional
    ? ' Offline answer, provisional: the door confirms it when the scan is uploaded.'
    : '';
  $('answer-detail').textContent = `${who}${type}${reason}${provisional}`;
  signal(colour);
}

/** Shows a scan that could not be checked, and why. */
export function showProblem(text) {
  $('answer').className = 'answer refused';
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

export function setNetwork(online) {
  const badge = $('network');
  badge.textContent = online ? 'Online' : 'Offline: scans are kept on this phone';
  badge.classList.toggle('offline', !online);
}
