// Every packaged file the service reads, gathered from the layer that declares each table (the
// database driver's, the pages'): what the single executable must carry (scripts/build-binary.mjs).
import { sqliteFiles } from '../db/sqlite-driver';
import { pageFiles } from '../rest/pages/page-files';

const tables = [sqliteFiles.files, pageFiles.files];

export const allPackagedFiles = Object.assign({}, ...tables) as typeof sqliteFiles.files &
  typeof pageFiles.files;

// An asset is found by its name alone: two tables naming one file would carry only one of them.
if (Object.keys(allPackagedFiles).length !== tables.reduce((n, t) => n + Object.keys(t).length, 0))
  throw new Error('Two tables of packaged files name the same file.');
