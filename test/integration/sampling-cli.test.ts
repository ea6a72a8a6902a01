/** `loupe sample --annotators --overlap` through the CLI: split from test/unit/project/sampling-assignments.test.ts. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loupe, newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-assign-cli-');

describe('loupe sample --annotators --overlap', () => {
  it('splits the batch and prints who labels what; refuses a bad overlap', () => {
    const project = join(dir, 'cli.loupe');
    const data = writeJsonl(join(dir, 'cli.jsonl'), newsRows(12));
    expect(loupe(['import', data, '--project', project]).status).toBe(0);
    const out = loupe([
      'sample',
      '--project',
      project,
      '--dataset',
      'news',
      '--n',
      '10',
      '--seed',
      '0',
      '--annotators',
      'a,b,c',
      '--overlap',
      '0.2',
    ]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toContain('Assigned (overlap-balanced-v1, overlap 0.2):');
    const lines = out.stdout.split('\n').filter((line) => /^[abc]: /.test(line));
    expect(lines.map((line) => line.split(' ').length - 1).reduce((x, y) => x + y, 0)).toBe(12); // 10 + round(0.2 · 10)
    const bad = loupe([
      'sample',
      '--project',
      project,
      '--dataset',
      'news',
      '--n',
      '1',
      '--annotators',
      'a,b',
      '--overlap',
      '1.5',
    ]);
    // The contract refuses it (the CLI keeps no range of its own): its message, exit 1.
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^Invalid input for sampling\.draw: .*<=1\n\s+→ at overlap\n$/s);
  }, 60_000);
});
