/**
 * A clone stands alone: no source, test or script reads a data folder beside the repository,
 * and the benchmark samples the tests read are in the repository with their licence files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../../helpers/benchmarks';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCANNED = ['test', 'scripts', 'electron', 'shared', 'db', 'renderer'];
const CODE = /\.(ts|tsx|mjs|cjs|js)$/;
const THIS_FILE = relative(ROOT, import.meta.filename);

/** Ways the tests used to reach the team's data folder outside the clone. */
const OUTSIDE_READS: RegExp[] = [
  /['"]\.\.['"]\s*,\s*['"]shared['"]/, // join(ROOT, <dot-dot>, <shared>, …)
  /\.\.\/shared\/data/, // '../shared/data'
  /\/work\/shared/, // the absolute path on the machine the samples came from
  /LOUPE_SAMPLE_DATA/, // the old environment fallback
];

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    if (statSync(full).isDirectory()) return codeFiles(full);
    return CODE.test(name) ? [relative(ROOT, full)] : [];
  });
}

describe('a clone needs nothing beside it', () => {
  it('no code or test reads a folder outside the repository', () => {
    const files = SCANNED.flatMap((dir) => codeFiles(join(ROOT, dir))).filter((f) => f !== THIS_FILE);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      return lines.flatMap((line, i) =>
        OUTSIDE_READS.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
      );
    });
    expect(offenders).toEqual([]);
  });

  it('every benchmark folder is in the repository with its licence file, and the README lists it', () => {
    const readme = readFileSync(join(BENCHMARKS, 'README.md'), 'utf8');
    const licences: Record<string, string[]> = {
      frank: ['LICENSE.FRANK-MIT', 'finesure-format/LICENSE.FineSurE-Apache-2.0'],
      faithbench: ['LICENSE'],
      tofueval: ['LICENSE', 'THIRD-PARTY-LICENSES'],
      xsumfaith: ['README.original.md'],
      cogensumm: ['README.txt'],
      summedits: ['LICENSE.txt'],
      realsumm: ['LICENSE.FineSurE-Apache-2.0'],
      'as-shipped': [
        'realsumm/LICENSE.FineSurE-Apache-2.0',
        'faithbench/LICENSE',
        'xsumfaith/README.original.md',
        'cogensumm/README.txt',
      ],
    };
    const folders = readdirSync(BENCHMARKS)
      .filter((n) => statSync(join(BENCHMARKS, n)).isDirectory())
      .sort();
    expect(folders).toEqual(Object.keys(licences).sort());
    for (const [folder, files] of Object.entries(licences)) {
      for (const file of files) {
        expect(existsSync(join(BENCHMARKS, folder, file)), `${folder}/${file}`).toBe(true);
        expect(readme, `README names ${folder}/${file}`).toContain(`\`${folder}/${file}\``);
      }
    }
    expect(readme).toMatch(/FaithBench is CC BY-NC-SA 4\.0: non-commercial/);
  });
});
