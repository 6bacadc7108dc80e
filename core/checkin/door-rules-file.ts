// door-rules.js as a file: the scanner page is served the very rules the server decides with.
import { type PackagedFile, projectFile } from '../../db/packaged-files';

export const doorRulesFile: PackagedFile = { path: projectFile('core', 'checkin', 'door-rules.js') };
