export { createShareLink } from './create-share-link';
export { deleteShareLink } from './delete-share-link';
export { listShareLinks } from './list-share-links';
export { listSharekitLeaderboard } from './list-sharekit-leaderboard';
