// Writes that lock two or more rows take them in one order (docs/architecture.md, "Lock order:"),
// so two writers at once on PostgreSQL wait for each other instead of meeting in a circle, which
// PostgreSQL ends after a second by making one the deadlock's victim (the server's write queue runs
// a victim again, so only the time shows; here nothing runs again, so the victim answers the error).
// - Programme: a session's write touches its speakers (updatedSince sees their sessionIds change)
//   in the order the session lists them; two sessions listing the same speakers in opposite orders
//   took them crosswise. Now speakers are touched in id order (touchSpeakers).
// - Call for speakers: a withdrawal removed the submission's draft session, whose foreign key then
//   set the submission's session_id to null, and moved the submission: session, then submission.
//   The session's removal unlinks the submissions first, then removes the session: submission, then
//   session. Now the withdrawal locks the submission first (lockForChange), as every other write.
// - Erasure: a person's tickets were erased before the orders they bought (the attendees come first
//   in core/admin/personal-resources.ts), while a cancellation, a refund or a payment takes the
//   order, then its tickets. Now the erasure locks the person's orders first, in id order
//   (core/admin/erasure-locks.ts), and runs again whole should they place one meanwhile (played
//   with the erasure held between that lock and its tickets, race-harness.ts heldAt).
// - Erasure: a submission's speaker was erased, then the submission touched (updatedSince), while a
//   change of the submission takes its row, then replaces its speakers. Now the erasure touches the
//   rows showing the erased ones first (erase-person.ts touchShownIn).
// - Surveys: an answer writes the survey's row, then inserts its own, which waits on an answer of
//   the same attendee being removed (the unique index); the survey's removal removed the answers,
//   then the survey. Now the removal locks the survey first (FOR UPDATE, loadEventRow 'removal').
// On PostgreSQL the calls read before either writes or locks (test/support/interleave.ts); SQLite
// writes one call at a time, so there they run in turn and these tests show only the answers.
import { describe, expect, it } from 'vitest';
import { erasePersonDataOperation as erasePersonData } from '../../core/admin/erase-person';
import { cancelAttendee } from '../../core/attendees/cancel-attendee';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { changeSubmissionStatus } from '../../core/cfp/change-submission-status';
import { createSubmission } from '../../core/cfp/create-submission';
import { updateSubmission } from '../../core/cfp/update-submission';
import { withdrawSubmission } from '../../core/cfp/withdraw-submission';
import { createEvent } from '../../core/events/create-event';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createSession } from '../../core/programme/create-session';
import { createSpeaker } from '../../core/programme/create-speaker';
import { deleteSession } from '../../core/programme/delete-session';
import { createSurvey } from '../../core/surveys/create-survey';
import { deleteSurvey } from '../../core/surveys/delete-survey';
import { submitSurveyAnswer } from '../../core/surveys/submit-survey-answer';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { call, atOnce, inTurn, heldAt, db } = raceHarness('Lock order');
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
  });
});

describe('call for speakers: a withdrawal beside the removal of its draft session', () => {
  async function accepted(eventId: string): Promise<{ submissionId: string; sessionId: string }> {
    const { submissionId } = await call(createSubmission, {
      eventId,
      title: 'Locks in order',
      abstract: 'Two writers, one circle.',
      format: 'talk',
      language: 'en',
      speakers: [{ name: 'Ada', email: 'ada@example.org' }],
    });
    await call(changeSubmissionStatus, { eventId, submissionId, status: 'underReview' });
    const { sessionId } = await call(changeSubmissionStatus, {
      eventId,
      submissionId,
      status: 'accepted',
      session: { startsLocal: day('10:00'), endsLocal: day('10:30'), allowClash: true },
    });
    return { submissionId, sessionId };
  }

  it('the removal answered and the submission withdrawn, never a deadlock', async () => {
    const { eventId } = await call(createEvent, eventBody());
    // A few rounds: the circle needs the withdrawal's removal to land within the other's few statements.
    for (let round = 0; round < 4; round += 1) {
      const { submissionId, sessionId } = await accepted(eventId);
      const [withdrawn, removed] = await race(
        [withdrawSubmission, { eventId, submissionId }],
        [deleteSession, { eventId, sessionId }],
      );
      expect(withdrawn).toMatchObject({ submissionId, status: 'withdrawn', sessionId: null });
      // The removal either came first, or found the draft session gone with the withdrawal.
      expect([{ sessionId, deleted: true }, 'notFound']).toContainEqual(removed);
      const left = await db().selectFrom('sessions').select('id').where('id', '=', sessionId).execute();
      expect(left).toEqual([]);
    }
  });
});

describe('erasure: a person who bought their own ticket, erased beside a change of the order', () => {
  async function ticket(eventId: string, email: string): Promise<{ attendeeId: string; orderId: string }> {
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const { attendees, orderId } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Visitor', email }],
    });
    return { attendeeId: attendees[0].attendeeId, orderId };
  }

  it('the ticket cancelled and the person erased', async () => {
    const { eventId } = await call(createEvent, eventBody());
    // A few rounds: the circle needs the erasure's first ticket before the cancellation reaches it.
    for (let round = 0; round < 4; round += 1) {
      const email = `ada.${round}.${Date.now()}@example.org`;
      const { attendeeId } = await ticket(eventId, email);
      const [cancelled, erased] = await race(
        [cancelAttendee, { eventId, attendeeId }],
        [erasePersonData, { email }],
      );
      expect(cancelled).toMatchObject({ attendeeId, status: 'cancelled' });
      expect(erased).toMatchObject({ attendees: 1, orders: 1 });
    }
  });
});

describe("erasure: an order placed between the erasure's lock of the person's orders and its tickets", () => {
  it('the erasure runs again whole and erases the new order too', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const email = `grace.${Date.now()}@example.org`;
    const buy = (lastName: string) => ({
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Grace', lastName, email }],
    });
    await call(registerAttendees, buy('First'));
    const erase: [AnyOperation, unknown] = [erasePersonData, { email }];
    const register: [AnyOperation, unknown] = [registerAttendees, buy('Second')];
    // On PostgreSQL the erasure is held after locking the one order, before finding the tickets;
    // the second order commits meanwhile and its ticket is among those the erasure then finds.
    const [held, registered] = onPostgres
      ? (await heldAt(erase, /select id from "attendees"/, register)).answers
      : (await inTurn(register, erase)).reverse();
    expect(registered).toMatchObject({ attendees: [{ lastName: 'Second' }] });
    // On PostgreSQL the erasure finds the new order under its locks and runs again whole (as the
    // write queue runs it); on SQLite it runs after the registration. Either way both are erased.
    expect(held).toMatchObject({ attendees: 2, orders: 2 });
  });
});

describe("erasure: a submission's speaker erased beside a change of the submission", () => {
  it('the submission changed and the speaker erased', async () => {
    const { eventId } = await call(createEvent, eventBody());
    // A few rounds, as above.
    for (let round = 0; round < 4; round += 1) {
      const email = `bo.${round}.${Date.now()}@example.org`;
      const { submissionId } = await call(createSubmission, {
        eventId,
        title: 'Erased meanwhile',
        abstract: 'A speaker leaves.',
        format: 'talk',
        language: 'en',
        speakers: [{ name: 'Bo', email }],
      });
      const [changed, erased] = await race(
        [updateSubmission, { eventId, submissionId, speakers: [{ name: 'Cy', email: 'cy@example.org' }] }],
        [erasePersonData, { email }],
      );
      expect(changed).toMatchObject({ submissionId, title: 'Erased meanwhile' });
      // The speaker was erased, or replaced before the erasure found them.
      expect([0, 1]).toContain(erased.submissionSpeakers);
    }
  });
});

describe("surveys: a survey's removal beside an attendee answering it again", () => {
  it('the removal answered; the answer refused or not found, never a deadlock', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    const { attendees } = await call(registerAttendees, {
      eventId,
      attendees: [{ ticketTypeId, firstName: 'Ada', lastName: 'Visitor', email: 'ada@example.org' }],
    });
    const attendeeId = attendees[0].attendeeId;
    for (let round = 0; round < 4; round += 1) {
      const { surveyId } = await call(createSurvey, {
        eventId,
        title: { en: 'Pulse' },
        questions: [{ id: 'mood', kind: 'rating', label: { en: 'Mood?' } }],
      });
      await call(submitSurveyAnswer, { eventId, surveyId, attendeeId, answers: { mood: 4 } });
      // Their second answer is refused either way; before, it could wait on the first's removal.
      const [removed, again] = await race(
        [deleteSurvey, { eventId, surveyId }],
        [submitSurveyAnswer, { eventId, surveyId, attendeeId, answers: { mood: 2 } }],
      );
      expect(removed).toEqual({ surveyId, deleted: true });
      expect(['alreadyAnswered', 'notFound']).toContain(again);
    }
  });
});
