// Ids of sample rows: derived from the workspace and a name, so the demonstration data is the
// same on every machine, and a sample workspace's ids never collide with another's.
import { v5 } from 'uuid';

const namespace = '6f1c2d4e-8a3b-5c7d-9e0f-a1b2c3d4e5f6';

export function sampleId(workspaceId: string, name: string): string {
  return v5(`${workspaceId}/${name}`, namespace);
}
