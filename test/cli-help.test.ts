// Issue 24, item 7: every command and subcommand of `tessera` ends its --help with examples that
// name it and run as written once their <placeholders> are filled: each parsed here by the
// command it names (its options known, their values among the choices, the required ones given,
// its arguments all there), and each listed in the README.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandPath } from '../src/cli-examples';
import { program } from '../src/cli-program';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/** The command's --help as printed. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

/** The example lines after "Examples:", without their comments. */
function examplesIn(help: string): string[] {
  const [, after = ''] = help.split('\nExamples:\n');
  return after
    .split('\n')
    .filter((line) => line.startsWith('  '))
    .map((line) => line.replace(/\s+#.*$/, '').trim());
}

/** Shell words: double quotes group, <placeholders> filled with a UUID. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map(([, quoted, bare]) =>
    (quoted ?? bare!).replace(/^<\w+>$/, '00000000-0000-4000-8000-000000000001'),
  );
}

/** Parses an example as commander would, by the command it names; answers that command. */
function parseExample(line: string): Command {
  const [npx, tessera, ...rest] = words(line);
  expect([npx, tessera]).toEqual(['npx', 'tessera']);
  let command = program;
  while (rest.length > 0) {
    const sub = command.commands.find((c) => c.name() === rest[0]);
    if (!sub) break;
    command = sub;
    rest.shift();
  }
  const { operands, unknown } = command.parseOptions(rest);
  expect(unknown, line).toEqual([]);
  if (command.commands.length === 0) {
    const required = command.registeredArguments.filter((a) => a.required).length;
    expect(operands.length, line).toBe(required);
  }
  for (const option of command.options.filter((o) => o.mandatory))
    expect(rest, `${line}: ${option.long}`).toContain(option.long);
  return command;
}

const commands = everyCommand(program);

describe('tessera --help', () => {
  it('reaches every command', () => {
    expect(commands.map(commandPath)).toEqual(
      expect.arrayContaining(['', 'serve', 'demo key', 'key create', 'key activity', 'order mark-paid']),
    );
    expect(commands.length).toBeGreaterThanOrEqual(19);
  });

  it.each(commands.map((command) => [commandPath(command) || '(tessera)', command] as const))(
    '%s shows examples that name it and parse as written',
    (path, command) => {
      const examples = examplesIn(helpOf(command));
      expect(examples.length, path).toBeGreaterThan(0);
      const own = `npx tessera ${commandPath(command)}`.trim();
      for (const example of examples) {
        expect(`${example} `, path).toContain(`${own} `);
        const named = parseExample(example);
        // A group's examples name one of its commands; a command's, itself.
        expect(commandPath(named).startsWith(commandPath(command)), example).toBe(true);
        if (command.commands.length === 0) expect(named).toBe(command);
      }
    },
  );

  it.each(
    commands
      .filter((command) => command.commands.length === 0)
      .map((command) => [commandPath(command), command] as const),
  )('%s takes --data DIR, as every command does', (_path, command) => {
    const data = command.options.find((option) => option.long === '--data');
    expect(data?.required, '--data <dir>').toBe(true);
  });

  it('lists every example in the README', () => {
    for (const command of commands)
      for (const example of examplesIn(helpOf(command))) expect(readme, example).toContain(example);
  });
});
