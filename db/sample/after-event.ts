// Sample of what follows an event, at the one that is over (Lisbon Design Week): a certificate of
// attendance for everyone who was checked in, issued the day after, each with its own random
// verification code (one revoked, as a mistaken one would be), and the photos and an article
// published for the whole event.
import { randomBytes } from 'node:crypto';
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';

export async function insertSampleAfterEvent(db: Db, sample: SampleContext): Promise<void> {
  const eventId = sample.id('event/past');
  const event = await db
    .selectFrom('events')
    .select('ends_utc')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const issued = new Date(Date.parse(event.ends_utc) + 86_400_000).toISOString();
  const checkedIn = await db
    .selectFrom('attendees')
    .select(['id', 'first_name', 'last_name', 'email', 'erased'])
    .where('event_id', '=', eventId)
    .where('checked_in_utc', 'is not', null)
    .orderBy('id')
    .execute();
  for (const [i, a] of checkedIn.entries()) {
    const revoked = i === 0 ? new Date(Date.parse(issued) + 3_600_000).toISOString() : null;
    await db
      .insertInto('certificates')
      .values({
        id: sample.id(`certificate/past/${a.id}`),
        workspace_id: sample.workspaceId,
        event_id: eventId,
        attendee_id: a.id,
        kind: 'attendance',
        first_name: a.first_name,
        last_name: a.last_name,
        email: a.email,
        erased: a.erased,
        issued_utc: issued,
        // Unguessable like any certificate's: never derived from the sample's fixed ids.
        verification_code: randomBytes(18).toString('base64url'),
        revoked_utc: revoked,
        created_utc: issued,
        updated_utc: revoked ?? issued,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
  }
  const content = [
    {
      key: 'photos',
      kind: 'photos',
      title: 'Photos of the week',
      url: 'https://example.org/lisbon-design-week/photos',
    },
    {
      key: 'article',
      kind: 'article',
      title: 'What we learned in Lisbon',
      url: 'https://example.org/lisbon-design-week/recap',
    },
  ] as const;
  for (const c of content) {
    await db
      .insertInto('published_content')
      .values({
        id: sample.id(`content/past/${c.key}`),
        workspace_id: sample.workspaceId,
        event_id: eventId,
        kind: c.kind,
        title: c.title,
        session_id: null,
        url: c.url,
        published_utc: issued,
        created_utc: issued,
        updated_utc: issued,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
  }
}
