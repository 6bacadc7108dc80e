// The published content family's message: content.published, data = { event, content }.
import type { ContentRow } from '../../db/schema';
import { type EventRefSource, eventRef } from '../events';
import { messageEmitter } from '../platform/storage/message-emitter';
import { contentView } from './content-view';

export interface ContentChange {
  event: EventRefSource;
  content: ContentRow;
}

export const contentPublished = messageEmitter('content.published', ({ event, content }: ContentChange) => ({
  eventId: event.id,
  data: { event: eventRef(event), content: contentView(content) },
}));
