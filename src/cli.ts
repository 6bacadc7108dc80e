// The `tessera` command (src/cli-program.ts holds its commands): runs it on the process's
// arguments. Answers are JSON on stdout for scripts; mistakes go to stderr as JSON with a
// non-zero exit.

import { CommanderError } from 'commander';
import { KeyRequestError } from '../core/admin';
import { ImportRefused } from '../core/import';
import { maskKeys } from '../core/platform/keys';
import { isProblem } from '../core/platform/problems';
import { RekeyRefused } from '../core/webhooks';
import { MigrationRefused } from '../db/migrate';
import { BackupRefused } from './backup/backup-format';
import { parserOutput, program } from './cli-program';
import { commandName } from './command-name';
import { SettingsError } from './settings';

/** A mistake as JSON on stderr; an API key in it (pasted where an id goes) cut to its prefix. */
function sayMistake(value: unknown, indent?: number): void {
  process.stderr.write(`${maskKeys(JSON.stringify(value, null, indent))}\n`);
}

/** What a failed command says, and its exit status. */
function sayFailure(error: unknown): never {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0 || error.code === 'commander.help' || error.code === 'commander.helpDisplayed') {
      process.stderr.write(parserOutput());
      process.exit(0);
    }
    const detail = (parserOutput().trim() || error.message).replace(/^error: /, '');
    const sentence = /[.!?]$/.test(detail) ? detail : `${detail}.`;
    const hint = error.code === 'commander.unknownCommand' ? ` See ${commandName} --help.` : '';
    sayMistake({ error: 'invalidArguments', detail: `${sentence}${hint}` });
    process.exit(2);
  }
  if (error instanceof ImportRefused) {
    const detail = `${error.message} Nothing was imported.`;
    sayMistake({ error: 'importRefused', detail, problems: error.issues }, 2);
    process.exit(2);
  }
  if (error instanceof MigrationRefused) {
    sayMistake({ error: error.code, detail: error.message });
    process.exit(1);
  }
  if (error instanceof BackupRefused) {
    sayMistake({ error: 'backupRefused', detail: error.message });
    process.exit(2);
  }
  const known =
    error instanceof KeyRequestError ||
    error instanceof SettingsError ||
    error instanceof RekeyRefused ||
    isProblem(error);
  const code = isProblem(error) ? error.code : known ? 'invalidArguments' : 'failed';
  sayMistake({ error: code, detail: (error as Error).message });
  process.exit(known ? 2 : 1);
}

// No top-level await: the single executable (scripts/build-binary.mjs) runs this as CommonJS.
program.parseAsync(process.argv).catch(sayFailure);
