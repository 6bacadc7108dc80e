// Ids of the sample passes (db/sample/passes.ts) and of the events they concern.
import { sampleId } from '../../db/sample/ids';

export function passIds(workspaceId: string) {
  const id = (name: string) => sampleId(workspaceId, name);
  return {
    event: (key: 'summit' | 'meetup' | 'forum' | 'remote' | 'past') => id(`event/${key}`),
    pass: (key: 'season' | 'bundle') => id(`pass/${key}`),
    holder: (pass: 'season' | 'bundle', key: string) => id(`passholder/${pass}/${key}`),
  };
}
