// Input fields a lead's capture and change share: the booth's rating, the visitor's answers to the
// sponsor's questions, and the staff's note.
import * as v from 'valibot';
import { multiLine, oneLine } from '../platform/schemas';

export const leadFields = {
  rating: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(3),
    v.description('1 cold, 2 warm, 3 hot.'),
  ),
  answers: v.pipe(
    v.record(v.pipe(v.string(), oneLine), v.unknown()),
    v.maxEntries(50),
    v.description(
      "The visitor's answers to the sponsor's questions, keyed by question id; replaces those kept. Only for a visitor who agreed to share.",
    ),
  ),
  note: v.nullable(
    v.pipe(
      v.string(),
      multiLine,
      v.maxLength(2000),
      v.description("The booth staff's note; null clears it."),
    ),
  ),
};
