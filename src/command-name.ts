// How the operator typed this command, for the examples the service prints: the single
// executable is run as ./tessera (or by its path), the sources through npx tessera.
import { basename } from 'node:path';
import { runsAsSingleExecutable } from '../db/packaged-files';

export const commandName: string = runsAsSingleExecutable
  ? process.argv0.includes('/')
    ? process.argv0
    : `./${basename(process.execPath)}`
  : 'npx tessera';
