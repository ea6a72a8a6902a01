/**
 * Options given more than once. Commander keeps the last value of a repeated option silently, so
 * `--base-url A --base-url B` would drop A. Two kinds then: a list option (the contract takes a
 * list: replicas' base URLs, a panel's judges, annotators) collects every value in order; every
 * other option that takes a value is refused when repeated (exit 2, naming the option).
 */
import { Option, type Command } from 'commander';
import { UsageError } from './client';

const LIST_OPTIONS = new WeakSet<Option>();

/** A repeatable option: each occurrence adds its value (checked by `parse`) to the list. Undefined when never given. */
export function listOption(
  flags: string,
  description: string,
  parse: (value: string) => string = (value) => value,
): Option {
  const option = new Option(flags, description).argParser((value: string, previous: string[] | undefined) => [
    ...(previous ?? []),
    parse(value),
  ]);
  LIST_OPTIONS.add(option);
  return option;
}

export function isListOption(option: Option): boolean {
  return LIST_OPTIONS.has(option);
}

/** Every command under `program` (itself included), depth first, with its path ("judges add"). */
export function allCommands(program: Command): Array<{ path: string; command: Command }> {
  const out: Array<{ path: string; command: Command }> = [];
  const walk = (command: Command, path: string) => {
    out.push({ path, command });
    for (const sub of command.commands) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  walk(program, '');
  return out;
}

/** A single-value option of any command given twice is a UsageError naming it; list options collect. */
export function refuseRepeatedOptions(program: Command): void {
  for (const { path, command } of allCommands(program)) {
    for (const option of command.options) {
      if (isListOption(option) || !(option.required || option.optional)) continue;
      let seen = 0;
      command.on(`option:${option.name()}`, () => {
        seen += 1;
        if (seen > 1)
          throw new UsageError(
            `${option.long ?? option.flags} was given more than once${path ? ` (loupe ${path})` : ''}; it takes one value`,
          );
      });
    }
  }
}

/** The list commands' line naming every base URL when a model has replicas (nothing for one URL). */
export function replicasLine(baseUrls: readonly string[]): string {
  return baseUrls.length > 1 ? `\n  replicas: ${baseUrls.join(', ')}` : '';
}
