export { listSharekitLeaderboard } from './list-sharekit-leaderboard';
