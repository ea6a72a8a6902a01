/**
 * Following an LLM run from the CLI, the same for `loupe judge` and `loupe accuracy run`: the
 * progress line on stderr, Ctrl-C pausing (a second one leaves at once), the end line and the exit
 * codes (0 done, 3 done with failed calls or unparsable answers, 130 paused by Ctrl-C, 4 paused by
 * the circuit, 1 failed); the report of a batch file read back (`--batch-in`); and what a run would
 * send (`--plan`, `accuracy plan`).
 */
import type { BatchImportCounts, RunStatus } from '../../shared/contract/tasks';
import { errorsText, inARowText, requestsText, unparseableText } from '../../shared/run-counts';
import { PROMPT_TOKEN_ESTIMATE } from '../../shared/judges/request';
import { sleep } from './client';

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

/**
 * The progress line of any run, from the run status's counters as every host shows them:
 * label, done/total, rate, ETA, requests, tokens, cached, unparseable, errors by kind, failures in a row.
 */
export function runProgressLine(label: string, s: RunStatus, itemNoun?: string): string {
  const pct = s.total > 0 ? ` (${Math.floor((100 * s.done) / s.total)}%)` : '';
  const parts = [label, `${s.done}/${s.total}${pct}${itemNoun ? ` ${itemNoun}s` : ''}`];
  if (s.ratePerSecond !== null) parts.push(`${s.ratePerSecond.toFixed(1)}/s`);
  if (s.etaSeconds !== null && s.state === 'running') parts.push(`ETA ${duration(s.etaSeconds)}`);
  if (s.requests > 0)
    parts.push(requestsText(s), `tokens ${compact(s.tokens.prompt)} in / ${compact(s.tokens.completion)} out`);
  if (s.cached > 0) parts.push(`${s.cached} cached`);
  if (s.parseErrors + s.reusedParseErrors > 0) parts.push(unparseableText(s));
  parts.push(errorsText(s));
  if (s.failuresInARow > 1 && (s.state === 'running' || s.state === 'paused')) parts.push(inARowText(s));
  if (s.state !== 'running') parts.push(s.message);
  return parts.join(' · ');
}

export interface RunCalls<S extends RunStatus> {
  status(runId: string): Promise<S>;
  pause(runId: string): Promise<S>;
}

/**
 * Polls a started run until it ends or pauses, printing `progressLine` (redrawn on a terminal,
 * at most once a second otherwise), and returns its last status once what arrived is written.
 */
export async function followRun<S extends RunStatus>(
  started: S,
  calls: RunCalls<S>,
  progressLine: (status: S) => string,
): Promise<S> {
  let status = started;
  const { runId } = status;
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const print = (force = false) => {
    const now = Date.now();
    if (!force && now - last < (tty ? 200 : 1000)) return;
    last = now;
    const line = progressLine(status);
    process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
  };
  print(true);
  let interrupted = false;
  let pausing: Promise<unknown> | null = null;
  const onSigint = () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: leave at once
    interrupted = true;
    process.stderr.write(
      `${tty ? '\n' : ''}Pausing: requests in flight are dropped and will be sent again on resume…\n`,
    );
    pausing = calls.pause(runId);
  };
  process.on('SIGINT', onSigint);
  try {
    // The run ends (done, cancelled, failed) or pauses (Ctrl-C, or the circuit): either way the CLI stops.
    while (status.state === 'running') {
      await sleep(50);
      status = await calls.status(runId);
      print();
    }
    if (pausing) await pausing;
    // A no-op unless still running; what arrived is written before it answers.
    status = await calls.pause(runId);
  } finally {
    process.off('SIGINT', onSigint);
  }
  print(true);
  if (tty) process.stderr.write('\n');
  return status;
}

/**
 * The end of a followed run: its notes, one line on stdout under `label`, and the exit code.
 * `countParseErrors`: unparsable answers make it exit 3 as failed calls do.
 */
export function reportRunEnd(
  status: RunStatus,
  { label, itemsNoun, countParseErrors }: { label: string; itemsNoun: string; countParseErrors: boolean },
): void {
  for (const note of status.notes) process.stderr.write(`Note: ${note}\n`);
  process.stdout.write(
    `${label}: ${status.message} (${status.done}/${status.total}; ${requestsText(status)}, ${status.cached} cached)\n`,
  );
  if (status.state === 'paused') {
    process.stderr.write(`Run the same command again to resume: answered ${itemsNoun} are not sent again.\n`);
    process.exitCode = status.pauseReason === 'user' ? 130 : 4;
  } else if (status.state === 'failed') process.exitCode = 1;
  else if (status.failed > 0 || (countParseErrors && status.parseErrors + status.reusedParseErrors > 0))
    process.exitCode = 3;
}

/** `--batch-in`'s report: each problem line, the notes, one summary line, and the exit code (3 on any problem). */
export function reportBatchImport(
  r: BatchImportCounts,
  {
    label,
    itemsNoun,
    countParseErrors,
    file,
  }: { label: string; itemsNoun: string; countParseErrors: boolean; file: string },
): void {
  for (const p of [...r.problems.failed, ...r.problems.unknown, ...r.problems.invalid]) {
    process.stderr.write(`${file} line ${p.line}${p.customId ? ` (${p.customId})` : ''}: ${p.message}\n`);
  }
  for (const note of r.notes) process.stderr.write(`Note: ${note}\n`);
  process.stdout.write(
    `${label}: ${r.lines} lines, ${r.answered} answered, ${r.parseErrors} unparsable, ${r.failed} failed, ${r.unknown} unknown ids, ${r.duplicates} duplicates, ${r.invalid} unreadable; ${r.shared} filled from the cache; ${r.stillToDo} ${itemsNoun} still to do (a run or another batch sends them)\n`,
  );
  if (r.failed > 0 || r.unknown > 0 || r.invalid > 0 || (countParseErrors && r.parseErrors > 0)) process.exitCode = 3;
}

/** A plan's lines after its counts line: where the requests go and the prompt tokens they carry; nothing was sent. */
export function planText(plan: { requests: number; promptTokens: number; baseUrls: readonly string[] }): string {
  const to = plan.baseUrls.length === 0 ? 'nowhere (the offline baseline answers here)' : plan.baseUrls.join(', ');
  return (
    `Sent to: ${to}\n` +
    `Prompt tokens: ${plan.promptTokens.toLocaleString('en-US')} in ${plan.requests.toLocaleString('en-US')} requests (${PROMPT_TOKEN_ESTIMATE}, from the real prompts)\n` +
    'Nothing was sent.\n'
  );
}
