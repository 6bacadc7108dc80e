// The feedback family's message: feedback.given, data = { event, feedback }, for a survey answer or
// a session rating; it never says who gave it.
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { type FeedbackSource, feedbackView } from './feedback-view';

export type FeedbackChange = { event: EventRefSource } & FeedbackSource;

export const feedbackGiven = messageEmitter('feedback.given', (change: FeedbackChange) => ({
  eventId: change.event.id,
  data: { event: eventRef(change.event), feedback: feedbackView(change) },
}));
