/**
 * One export of a project in a process of its own, so its peak memory is the export's: `stream`
 * is what `loupe export --out` and the desktop do (export.write), `build` the whole file in memory
 * first (export.build, what they did before). Prints one JSON line: seconds, rows, bytes, peak RSS.
 * KIND picks another export than the labels (accuracy, predictions, review, scaffold, scaffoldAlignments).
 * Run by bench:import; usage: tsx test/bench/export-run.ts PROJECT OUT stream|build [KIND]
 */
import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { dispatch } from '../../electron/core/index';
import { webCore } from '../helpers/web-core';

async function main(): Promise<void> {
  const [project, out, mode, kind] = process.argv.slice(2);
  if (!project || !out || (mode !== 'stream' && mode !== 'build'))
    throw new Error('usage: PROJECT OUT stream|build [KIND]');
  const what = kind ? { [kind]: true } : {};
  const core = webCore(`${out}.state`, { diskPaths: true });
  core.openProject(project);
  const format = extname(out) === '.csv' ? 'csv' : 'jsonl';
  const started = performance.now();
  const envelope =
    mode === 'stream'
      ? await dispatch(core.handlers, 'export.write', { format, ...what, path: out })
      : await dispatch(core.handlers, 'export.build', { format, ...what });
  if (!envelope.ok) throw new Error(envelope.error.message);
  const answer = envelope.value as { rows: number; content?: string };
  if (mode === 'build') writeFileSync(out, answer.content ?? '');
  const seconds = (performance.now() - started) / 1000;
  const peakMb = (process.resourceUsage().maxRSS * 1024) / 1024 / 1024;
  process.stdout.write(`${JSON.stringify({ seconds, rows: answer.rows, peakMb })}\n`);
}

void main();
