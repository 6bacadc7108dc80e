// The community member family's messages: data = { community, member }, about no event.
import type { CommunityMemberRow, CommunityRow } from '../../db/schema';
import { messageEmitter } from '../platform/storage/message-emitter';
import { communityRefOf, memberView } from './member-view';

export interface MemberChange {
  community: Pick<CommunityRow, 'id' | 'slug' | 'name'>;
  member: CommunityMemberRow;
}

const memberMessage = ({ community, member }: MemberChange) => ({
  eventId: null,
  data: { community: communityRefOf(community), member: memberView('unredacted', member) },
});

export const memberJoined = messageEmitter('member.joined', memberMessage);
export const memberLeft = messageEmitter('member.left', memberMessage);
