/**
 * Every contract method is reachable from the command line or listed as UI-only with its reason
 * (electron/cli/parity.ts): the table covers the contract exactly, each command and option it
 * names is registered with commander, and the README's section is the table rendered.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, type ApiMethod } from '../../shared/api';
import { CLI_PARITY, commandOf, parityMarkdown } from '../../electron/cli/parity';
import { allCommands } from '../../electron/cli/options';
import { buildProgram } from '../../electron/cli/program';
import { REPO } from '../helpers/serve';

const methods = Object.keys(API) as ApiMethod[];
const commands = new Map(allCommands(buildProgram()).map(({ path, command }) => [path, command]));

describe('the CLI parity table', () => {
  it('lists every contract method, and nothing else', () => {
    const listed = Object.keys(CLI_PARITY);
    expect(methods.filter((m) => !listed.includes(m))).toEqual([]);
    expect(listed.filter((m) => !methods.includes(m as ApiMethod))).toEqual([]);
    expect(methods).toContain('proposals.accept');
  });

  it('names only registered commands and options', () => {
    const broken: string[] = [];
    for (const m of methods) {
      const reach = CLI_PARITY[m];
      if (!('cli' in reach)) {
        if (reach.uiOnly.trim().length < 20) broken.push(`${m}: a UI-only method needs its reason`);
        continue;
      }
      const { path, options } = commandOf(reach.cli);
      const command = commands.get(path);
      if (!command) {
        broken.push(`${m}: no command "loupe ${path}"`);
        continue;
      }
      if (path !== '' && command.commands.length > 0) broken.push(`${m}: "loupe ${path}" is a group, not a command`);
      for (const o of options)
        if (!command.options.some((opt) => opt.long === o)) broken.push(`${m}: "loupe ${path}" has no option ${o}`);
    }
    expect(broken).toEqual([]);
  });

  it('each method with a command is called by the CLI (or the method it goes through), unless the host does it at startup', () => {
    const cli = join(REPO, 'electron', 'cli');
    const source = readdirSync(cli)
      .filter((f) => f.endsWith('.ts') && f !== 'parity.ts')
      .map((f) => readFileSync(join(cli, f), 'utf8'))
      .join('\n');
    const uncalled = methods.flatMap((m) => {
      const reach = CLI_PARITY[m];
      if (!('cli' in reach) || reach.via === 'startup') return [];
      const called = reach.via ?? m;
      return source.includes(`'${called}'`) ? [] : [`${m} (${called})`];
    });
    expect(uncalled).toEqual([]);
  });

  it('the README section "Every capability from every host" is the table rendered', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const start = readme.indexOf('## Every capability from every host\n');
    expect(start).toBeGreaterThan(-1);
    const end = readme.indexOf('\n## ', start + 1);
    expect(readme.slice(start, end)).toBe(parityMarkdown(methods));
  });
});
