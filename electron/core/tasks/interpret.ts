/**
 * One answer as it is stored, whoever brought it (a live call or a line of a batch output file):
 * the kind's reading of a completion, keys redacted from the raw text, an output that contains a
 * known key refused, a cut-off answer said so. The engine and the batch reader both call this, so
 * a batch answer is stored exactly as a live one.
 */
import { redact } from '../../../shared/judges/redact';
import type { Answer, InterpretContext, Interpretation, StoredAnswer, TaskKind } from './kind';

export function storedAnswer<C, I, O>(
  kind: TaskKind<C, I, O>,
  config: C,
  answer: Answer<O>,
  secrets: ReadonlyArray<string | null>,
  context: InterpretContext,
  /** The input answered, for the kind's checkOutput (absent: no such check). */
  answered?: { input: I },
): StoredAnswer<O> {
  if (answer.type === 'output')
    return {
      output: answer.output,
      raw: redact(answer.raw, secrets),
      parseError: null,
      tokensIn: null,
      tokensOut: null,
    };
  const base = {
    raw: answer.content === null ? null : redact(answer.content, secrets),
    tokensIn: answer.tokensIn,
    tokensOut: answer.tokensOut,
  };
  let reading: Interpretation<O> = kind.interpret(answer, config, context);
  if (reading.ok && containsSecret(reading.output, secrets))
    reading = { ok: false, error: 'the answer contains the API key; its output is not stored' };
  if (reading.ok && answered && kind.checkOutput) {
    const problem = kind.checkOutput(reading.output, answered.input);
    if (problem !== null) reading = { ok: false, error: problem };
  }
  if (!reading.ok) {
    const cut =
      answer.finishReason === 'length' ? ' (finish_reason "length": the answer was cut off at max tokens)' : '';
    return { ...base, output: null, parseError: redact(`${reading.error}${cut}`, secrets) };
  }
  return { ...base, output: reading.output, parseError: null };
}

function containsSecret(output: unknown, secrets: ReadonlyArray<string | null>): boolean {
  const known = secrets.filter((s): s is string => s !== null && s.length >= 4);
  if (known.length === 0) return false;
  const text = JSON.stringify(output) ?? '';
  return known.some((s) => text.includes(s));
}

/** Collects a kind's run-level remarks (notes said once, problems counted). */
export class RunNotes implements InterpretContext {
  readonly once: string[] = [];
  readonly tallies = new Map<string, number>();

  noteOnce(text: string): void {
    if (!this.once.includes(text)) this.once.push(text);
  }

  tally(problem: string): void {
    this.tallies.set(problem, (this.tallies.get(problem) ?? 0) + 1);
  }

  lines<C, I, O>(kind: TaskKind<C, I, O>): string[] {
    const out = [...this.once];
    for (const [problem, n] of this.tallies)
      out.push(kind.tallyNote?.(problem, n) ?? `${problem} (${n} ${kind.itemNoun}(s))`);
    return out;
  }
}
