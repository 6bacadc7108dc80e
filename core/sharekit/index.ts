export { createShareLink } from './create-share-link';
export { deleteShareLink } from './delete-share-link';
export { followShareLink } from './follow-share-link';
export { leaderboardEntrySchema, sharerPersonal } from './leaderboard-view';
export { listShareLinks } from './list-share-links';
export { listSharekitLeaderboard } from './list-sharekit-leaderboard';
export { recordShareRegistration } from './record-share-registration';
export { shareLinkSchema } from './share-link-view';
