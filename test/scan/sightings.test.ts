// The scanner page's rule for reading a code from the camera (rest/pages/scan-app/sightings.js), fed
// frames as the page's camera loop feeds it: what each frame shows and the time it was read. The
// browser test (test/browser/scanner.test.ts) shows the same with Chromium's fake camera.
import { describe, expect, it } from 'vitest';
import { sightings } from '../../rest/pages/scan-app/sightings.js';

/** The codes read from frames taken every `everyMs`, each frame showing what `shows(i)` says. */
function readsOf(frames: number, everyMs: number, shows: (i: number) => string[]) {
  const presented = sightings();
  const reads: [number, string][] = [];
  for (let i = 0; i < frames; i += 1) {
    const fresh = presented.seen(shows(i), i * everyMs);
    if (fresh) reads.push([i, fresh]);
  }
  return reads;
}

describe('reading codes from the camera, once a presentation', () => {
  it('reads a code held still for a minute once', () => {
    expect(readsOf(400, 150, () => ['A'])).toEqual([[0, 'A']]);
  });

  it('reads a code held still once though the decoder misses it on some frames', () => {
    // Missed on two frames in three, and on three in a row: a hand shaking, a glare.
    const shows = (i: number) => (i % 3 === 0 || (i > 100 && i < 104) ? [] : ['A']);
    expect(readsOf(400, 150, shows).map(([, code]) => code)).toEqual(['A']);
  });

  it('reads a code again once it has left the view for a while and is shown again', () => {
    // In view 3 s, out of view 1.5 s, in view again.
    const shows = (i: number) => (i < 20 || i >= 30 ? ['A'] : []);
    expect(readsOf(60, 150, shows)).toEqual([
      [0, 'A'],
      [30, 'A'],
    ]);
  });

  it('takes a blink shorter than a second for the same presentation, on a fast phone too', () => {
    // 30 reads a second: six frames without the code are 0.2 s.
    const shows = (i: number) => (i >= 50 && i < 56 ? [] : ['A']);
    expect(readsOf(200, 33, shows)).toEqual([[0, 'A']]);
  });

  it('takes a gap of fewer than four reads for the same presentation, on a slow phone too', () => {
    // One read every 600 ms: three reads without the code are 1.8 s.
    const shows = (i: number) => (i >= 10 && i < 13 ? [] : ['A']);
    expect(readsOf(30, 600, shows)).toEqual([[0, 'A']]);
  });

  it('reads another code at once, and one new code a frame when two arrive together', () => {
    const shows = (i: number) => (i < 5 ? ['A'] : i < 10 ? ['B'] : ['B', 'C', 'D']);
    expect(readsOf(14, 150, shows)).toEqual([
      [0, 'A'],
      [5, 'B'],
      [10, 'C'],
      [11, 'D'],
    ]);
  });

  it('reads the code in view again after a reset (the camera turned off and on)', () => {
    const presented = sightings();
    expect(presented.seen(['A'], 0)).toBe('A');
    expect(presented.seen(['A'], 150)).toBeNull();
    presented.reset();
    expect(presented.seen(['A'], 300)).toBe('A');
  });
});
