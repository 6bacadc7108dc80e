// Which code the camera's frames present anew: a ticket held in view is read once, however long it
// is held; read again only once it has left the view and is shown again. A decoder misses a code
// held still on some frames (glare, a shaking hand), so a code has left only after it has gone
// unseen in `goneAfterReads` reads in a row spanning at least `goneAfterMs`; another code shown
// meanwhile is read at once. Counting reads as well as time keeps a slow phone (few reads a
// second) and a fast one alike from taking a blink for a new presentation.

/** A tracker of the codes in view, fed each frame's codes with the time it was read. */
export function sightings({ goneAfterReads = 4, goneAfterMs = 1000 } = {}) {
  /** The codes in view by their text: reads without them in a row, and since when. */
  const inView = new Map();
  return {
    /** The one code this frame presents anew, to be read now, or null. */
    seen(texts, now) {
      const here = new Set(texts);
      for (const [text, state] of inView) {
        if (here.has(text)) {
          state.missed = 0;
          state.missedSince = null;
          continue;
        }
        state.missed += 1;
        state.missedSince ??= now;
        if (state.missed >= goneAfterReads && now - state.missedSince >= goneAfterMs) inView.delete(text);
      }
      // One a frame: a second new code in the same frame is read on the next one.
      const fresh = [...here].find((text) => !inView.has(text)) ?? null;
      if (fresh !== null) inView.set(fresh, { missed: 0, missedSince: null });
      return fresh;
    },
    /** Forgets what was in view (the camera turned off: the next code shown is a new presentation). */
    reset() {
      inView.clear();
    },
  };
}
