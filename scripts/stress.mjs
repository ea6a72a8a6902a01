#!/usr/bin/env node
// `npm run test:stress`: the keyboard-flow tests, 20 runs in a row while two busy loops hold both
// cores (a loaded machine is where keys used to land on the wrong layer). Prints each run's result
// and a final "N/20 passed"; exits non-zero when any run failed. Extra arguments go to each
// `vitest run` (e.g. a single file); LOUPE_STRESS_RUNS changes the number of runs.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const RUNS = Number(process.env.LOUPE_STRESS_RUNS ?? 20);
const FILES = [
  'test/unit/renderer/annotate-flow',
  'test/unit/renderer/accuracy-claims',
  'test/unit/renderer/accuracy-keyfacts',
  'test/unit/renderer/scaffold-',
  'test/unit/renderer/keyboard-',
];
// The reporter's ANSI colour codes, stripped before reading its summary line.
// eslint-disable-next-line no-control-regex -- the escape character is what this matches
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const extra = process.argv.slice(2);

// One busy loop per core, each in its own process, stopped (by its own pid) when the runs end.
const cores = Math.max(2, availableParallelism());
const loops = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

let passed = 0;
for (let run = 1; run <= RUNS; run += 1) {
  const started = Date.now();
  const result = spawnSync(
    npx,
    ['vitest', 'run', '--project', 'unit', '--reporter=dot', ...(extra.length ? extra : FILES)],
    { encoding: 'utf8' },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary =
    (result.stdout ?? '')
      .split('\n')
      .find((line) => /^\s*Tests\s/.test(line.replace(ANSI_COLOUR, '')))
      ?.replace(ANSI_COLOUR, '')
      .trim() ?? '';
  if (result.status === 0) {
    passed += 1;
    process.stdout.write(`run ${run}/${RUNS}: passed in ${seconds} s (${summary})\n`);
  } else {
    process.stdout.write(
      `run ${run}/${RUNS}: FAILED in ${seconds} s (${summary || `exit ${result.status ?? result.signal}`})\n`,
    );
    process.stdout.write(`${result.stdout ?? ''}${result.stderr ?? ''}\n`);
  }
}
stopLoops();
process.stdout.write(`\n${passed}/${RUNS} passed with ${cores} busy loops holding ${cores} cores\n`);
process.exit(passed === RUNS ? 0 : 1);
