/**
 * Reading a system-under-test's answer as "no summary reached the user" (the Summarization Accuracy card: such a document
 * scores 0.0 on all three metrics). Pure and conservative: only a short answer that opens with a
 * refusal, or that says a guardrail or content filter stopped it, counts; a summary that merely
 * mentions an apology does not.
 */
import type { SystemFailure } from './domain';

/** Longer answers are summaries, whatever their first words. */
const MAX_FAILURE_CHARS = 600;

const REFUSAL_OPENING =
  /^(?:["'“]?\s*)(?:i['’]m sorry|i am sorry|sorry,|i apologi[sz]e|i can(?:no|['’])t|i cannot|i won['’]t|i will not|i['’]m (?:not able|unable)|i am (?:not able|unable)|as an ai\b|unfortunately,? i (?:can(?:no|['’])t|cannot|am unable))/i;
const GUARDRAIL =
  /\b(?:guardrail|content (?:filter|policy|management policy)|(?:blocked|flagged|filtered) (?:by|due to|for) (?:the |a |our )?(?:safety|content|moderation|policy)|violates? (?:our|the) (?:usage |content )?polic(?:y|ies))\b/i;

export interface SummaryReading {
  /** null: a summary. */
  failure: Exclude<SystemFailure, 'error'> | null;
  /** The summary text (think blocks dropped, trimmed), or the answer that was not one. */
  text: string;
}

/** Drops reasoning blocks a model may put before its answer. */
export function stripThink(content: string): string {
  const close = content.lastIndexOf('</think>');
  return (close === -1 ? content : content.slice(close + '</think>'.length)).trim();
}

/** A completion of a system under test: a summary, or a refusal / guardrail / empty answer. */
export function readSummaryAnswer(content: string | null, finishReason: string | null): SummaryReading {
  const text = stripThink(content ?? '');
  if (finishReason === 'content_filter') return { failure: 'guardrail', text };
  if (text === '') return { failure: 'empty', text };
  if (text.length <= MAX_FAILURE_CHARS) {
    if (GUARDRAIL.test(text)) return { failure: 'guardrail', text };
    if (REFUSAL_OPENING.test(text)) return { failure: 'refusal', text };
  }
  return { failure: null, text };
}

/** An HTTP error of a system call: a guardrail when the endpoint says its filter or policy refused. */
export function failureOfError(message: string): Extract<SystemFailure, 'error' | 'guardrail'> {
  return /content[_ ]?filter|content[_ ]?policy|guardrail|responsible ?ai|moderation/i.test(message)
    ? 'guardrail'
    : 'error';
}
