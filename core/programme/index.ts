export { createSession } from './create-session';
export { getSession } from './get-session';
export { listRooms } from './list-rooms';
export { listSessions } from './list-sessions';
export { listSpeakers } from './list-speakers';
export { listTracks } from './list-tracks';
export { updateSession } from './update-session';
