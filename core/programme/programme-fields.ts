// Input fields of the programme's rooms, tracks and speakers, shared by adding and changing them.
import * as v from 'valibot';
import { colourMessage, multiLine, oneLine, sortOrderInput } from '../platform/schemas';

const name = v.pipe(
  v.string(),
  oneLine,
  v.minLength(1),
  v.maxLength(200),
  v.description('As the programme shows it.'),
);
const sortOrder = sortOrderInput;
const optionalText = (max: number, what?: string, lines = oneLine) =>
  v.nullable(
    v.pipe(
      v.string(),
      lines,
      v.maxLength(max),
      v.description(what ? `${what}; null clears it.` : 'Null clears it.'),
    ),
  );

export const roomFields = {
  name,
  capacity: v.nullable(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(2_147_483_647),
      v.description('Seats; null: no limit.'),
    ),
  ),
  location: optionalText(200, 'Floor, wing'),
  sortOrder,
};

export const trackFields = {
  name,
  colour: v.pipe(
    v.string(),
    v.regex(/^#[0-9a-fA-F]{6}$/, colourMessage),
    v.description('#rrggbb. Default #4c6ef5.'),
  ),
  description: optionalText(2000, undefined, multiLine),
  sortOrder,
};

export const speakerFields = {
  name,
  email: v.nullable(
    v.pipe(v.string(), v.email(), v.maxLength(254), v.description('Shown back only with people:read.')),
  ),
  company: optionalText(200),
  jobTitle: optionalText(200),
  bio: optionalText(5000, 'Markdown', multiLine),
  photoUrl: v.nullable(
    v.pipe(
      v.string(),
      oneLine,
      v.url(),
      v.startsWith('https://'),
      v.maxLength(2000),
      v.description('An https address.'),
    ),
  ),
};
