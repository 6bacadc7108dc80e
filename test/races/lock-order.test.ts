// Writes that lock two or more rows take them in one order (docs/architecture.md, "Lock order:"),
// so two writers at once on PostgreSQL wait for each other instead of meeting in a circle, which
// PostgreSQL ends after a second by making one the deadlock's victim (the server's write queue runs
// a victim again, so only the time shows; here nothing runs again, so the victim answers the error).
// - Programme: a session's write touches its speakers (updatedSince sees their sessionIds change)
//   in the order the session lists them; two sessions listing the same speakers in opposite orders
//   took them crosswise. Now speakers are touched in id order (touchSpeakers).
// On PostgreSQL the calls read before either writes or locks (test/support/interleave.ts); SQLite
// writes one call at a time, so there they run in turn and these tests show only the answers.
import { describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { createSession } from '../../core/programme/create-session';
import { createSpeaker } from '../../core/programme/create-speaker';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, atOnce, inTurn } = raceHarness('Lock order');
const race = onPostgres ? atOnce : inTurn;
const day = (time: string) => `2027-05-01T${time}`;

describe('programme: sessions and their speakers', () => {
  async function speakers(eventId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1)
      ids.push((await call(createSpeaker, { eventId, name: `Speaker ${i}` })).speakerId);
    return ids;
  }

  const at = (starts: string) => ({ startsLocal: day(starts), endsLocal: day(starts.replace(':00', ':45')) });

  it('two sessions made with the same speakers listed in opposite orders', async () => {
    const { eventId } = await call(createEvent, eventBody());
    // Six of them: the calls meet in the middle of the lists unless one is half of them ahead.
    const listed = await speakers(eventId, 6);
    const reversed = [...listed].reverse();
    const answers = await race(
      [createSession, { eventId, title: 'First', ...at('10:00'), speakerIds: listed }],
      [createSession, { eventId, title: 'Second', ...at('12:00'), speakerIds: reversed }],
    );
    expect(answers).toMatchObject([{ speakerIds: listed }, { speakerIds: reversed }]);
  }, 20_000);
});
