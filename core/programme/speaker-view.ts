// The public Speaker resource. Name, company, job title, bio and photo are what the published
// programme shows, so program:read sees them; the email address is personal data (null without
// people:read). A speaker who erased their data shows nothing personal at all.
import * as v from 'valibot';
import type { SpeakerRow } from '../../db/schema';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

/**
 * The email address is withheld without people:read; what the programme shows (name, company, job
 * title, bio, photo) is public until the speaker erases their data.
 */
export const speakerPersonal = declarePersonal({
  resource: 'speaker',
  idField: 'speakerId',
  table: 'speakers',
  fields: { email: 'email' },
  publicUntilErased: {
    name: 'name',
    company: 'company',
    jobTitle: 'job_title',
    bio: 'bio',
    photoUrl: 'photo_url',
  },
  emailColumn: 'email',
});

export const speakerSchema = v.object({
  speakerId: uuid('The speaker id.'),
  eventId: uuid('The event id.'),
  name: v.nullable(text('Name as the programme shows it; null only when the speaker erased their data.')),
  company: v.nullable(text('Company, as the programme shows it.')),
  jobTitle: v.nullable(text('Job title, as the programme shows it.')),
  bio: v.nullable(text('Short biography in Markdown.')),
  photoUrl: v.nullable(v.pipe(v.string(), v.url(), v.description('Address of the photo.'))),
  email: v.nullable(
    v.pipe(v.string(), v.email(), v.description('Email address. Personal data: null without people:read.')),
  ),
  sessionIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Sessions of the event the speaker speaks at, first first.'),
  ),
  updatedUtc: dateTime('Last change (also when their sessions change); pass the newest as updatedSince.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type SpeakerView = v.InferOutput<typeof speakerSchema>;

export function speakerView(reader: Reader, row: SpeakerRow, sessionIds: string[]): SpeakerView {
  return applyPersonalData(
    reader,
    {
      speakerId: row.id,
      eventId: row.event_id,
      name: row.name,
      company: row.company,
      jobTitle: row.job_title,
      bio: row.bio,
      photoUrl: row.photo_url,
      email: row.email,
      sessionIds,
      updatedUtc: row.updated_utc,
    },
    speakerPersonal,
    row.erased === 1,
  );
}
