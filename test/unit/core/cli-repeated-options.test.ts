/**
 * Every option of every registered `loupe` command, given twice: a list option (the contract takes
 * a list) keeps both values in order; any other option that takes a value is refused, naming it,
 * before the command does anything (the entry point turns the UsageError into exit 2).
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/client';
import { allCommands, isListOption } from '../../../electron/cli/options';
import { buildProgram } from '../../../electron/cli/program';

/** The program with every action replaced by a recorder, and commander's exits turned into throws. */
function inertProgram(): { program: Command; seen: Array<Record<string, unknown>> } {
  const program = buildProgram();
  const seen: Array<Record<string, unknown>> = [];
  for (const { command } of allCommands(program)) {
    command.exitOverride();
    command.action(function (this: Command) {
      seen.push(this.opts());
    });
  }
  return { program, seen };
}

/** A command's mandatory options and required arguments, filled so it parses to its action. */
function requiredArgs(command: Command, except: Option): string[] {
  const options = command.options.filter((o) => o.mandatory && o.long !== except.long).flatMap((o) => [o.long!, '1']);
  const operands = command.registeredArguments.filter((a) => a.required).map(() => '1');
  return [...operands, ...options];
}

const leaves = allCommands(buildProgram()).filter(({ command, path }) => path !== '' && command.commands.length === 0);
const valued = leaves.flatMap(({ path, command }) =>
  command.options.filter((o) => o.required || o.optional).map((option) => ({ path, option })),
);

describe('repeated options of the loupe command line', () => {
  it('walks a real command line: the list options are the ones the contract takes lists for', () => {
    const lists = valued
      .filter(({ option }) => isListOption(option))
      .map(({ path, option }) => `${path} ${option.long}`);
    expect(lists.sort()).toEqual([
      'judges add --base-url',
      'review --judge',
      'review-table --judge',
      'serve --allow-key-env',
      'serve --annotator',
      'systems add --base-url',
    ]);
    expect(valued.length).toBeGreaterThan(60);
  });

  it.each(
    valued
      .filter(({ option }) => !isListOption(option))
      .map(({ path, option }) => [path, option.long!, option] as const),
  )('%s %s given twice is refused with its name', async (path, long) => {
    const { program, seen } = inertProgram();
    const run = program.parseAsync(['node', 'loupe', ...path.split(' '), long, '1', long, '2'], { from: 'node' });
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(`${long} was given more than once (loupe ${path}); it takes one value`);
    expect(seen).toEqual([]);
  });

  it.each(
    valued
      .filter(({ option }) => isListOption(option))
      .map(({ path, option }) => [path, option.long!, option] as const),
  )('%s %s given twice keeps both, in order', async (path, long, option) => {
    const command = allCommands(buildProgram()).find((c) => c.path === path)!.command;
    const { program, seen } = inertProgram();
    await program.parseAsync(
      ['node', 'loupe', ...path.split(' '), ...requiredArgs(command, option), long, 'A_1', long, 'B_2'],
      { from: 'node' },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]![option.attributeName()]).toEqual(['A_1', 'B_2']);
  });

  it('a single-value option given once, and a flag given twice, still parse', async () => {
    const { program, seen } = inertProgram();
    await program.parseAsync(
      ['node', 'loupe', 'plan', '--project', 'p.loupe', '--target', '0.05', '--json', '--json'],
      { from: 'node' },
    );
    expect(seen).toEqual([{ project: 'p.loupe', target: 0.05, json: true }]);
  });
});
