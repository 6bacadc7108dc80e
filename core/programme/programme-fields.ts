// Input fields of the programme's rooms, tracks and speakers, shared by adding and changing them.
import * as v from 'valibot';

const name = (what: string) =>
  v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description(`${what}, 1 to 200 characters.`));
const sortOrder = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(0),
  v.description('Place in the list (default: last).'),
);
const optionalText = (max: number, what: string) =>
  v.nullable(v.pipe(v.string(), v.maxLength(max), v.description(`${what}; null clears it.`)));

export const roomFields = {
  name: name('Name, as the programme shows it'),
  capacity: v.nullable(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(2_147_483_647),
      v.description('Seats; null: not limited.'),
    ),
  ),
  location: optionalText(200, 'Where to find it in the venue (floor, wing)'),
  sortOrder,
};

export const trackFields = {
  name: name('Name, as the programme shows it'),
  colour: v.pipe(
    v.string(),
    v.regex(/^#[0-9a-fA-F]{6}$/),
    v.description('Colour the programme shows it in, as #rrggbb (default #4c6ef5).'),
  ),
  description: optionalText(2000, 'Description'),
  sortOrder,
};

export const speakerFields = {
  name: name('Name, as the programme shows it'),
  email: v.nullable(
    v.pipe(
      v.string(),
      v.email(),
      v.maxLength(254),
      v.description('Email address. Personal data: shown only with people:read; null clears it.'),
    ),
  ),
  company: optionalText(200, 'Company, as the programme shows it'),
  jobTitle: optionalText(200, 'Job title, as the programme shows it'),
  bio: optionalText(5000, 'Short biography in Markdown'),
  photoUrl: v.nullable(
    v.pipe(
      v.string(),
      v.url(),
      v.startsWith('https://'),
      v.maxLength(2000),
      v.description('https address of the photo.'),
    ),
  ),
};
