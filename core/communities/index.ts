export { getCommunity } from './get-community';
export { listCommunities } from './list-communities';
export { listCommunityMembers } from './list-community-members';
