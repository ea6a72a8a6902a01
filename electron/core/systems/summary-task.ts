/**
 * summary_generation: each document → a summary by a system under test, split by Loupe's splitter
 * and stored with its `system_outputs` row; a refusal, a guardrail answer, an empty answer, an
 * answer longer than a summary may be or an error after the retries is recorded as the failure
 * (the document scores 0.0 for that system). A stored summary is never replaced.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Repository } from '../../../db/repository';
import type { SystemConfig } from '../../../shared/contract/systems';
import { SystemFailureSchema } from '../../../shared/accuracy/domain';
import { failureOfError, readSummaryAnswer } from '../../../shared/accuracy/refusal';
import { isLikelyFragment } from '../../../shared/domain';
import { canonicalJson } from '../../../shared/judges/config';
import { LIMITS } from '../../../shared/limits';
import { SPLITTER, splitSentences } from '../../../shared/split/sentences';
import { fillTemplate } from '../tasks/json-kind';
import { sha256Hex } from '../tasks/hashing';
import type { ChatRequestBody, TaskKind } from '../tasks/kind';
import { documentTexts, plural, setupOf, type Selection, type System } from '../tasks/setup';

/** The answer-affecting fields: the first URL, model, prompt and decoding (not concurrency, timeout, retries). */
export function systemConfigHash(config: SystemConfig): string {
  const fields = {
    baseUrl: config.baseUrl ?? config.baseUrls![0]!,
    model: config.model,
    prompt: config.prompt,
    temperature: config.temperature,
    topP: config.topP,
    maxTokens: config.maxTokens,
    extra: config.extra,
  };
  return createHash('sha256')
    .update(canonicalJson(['loupe-system-1', fields]))
    .digest('hex');
}

export const SummaryOutputSchema = z.union([
  z.object({ summary: z.string().min(1) }).strict(),
  z.object({ failure: SystemFailureSchema, text: z.string() }).strict(),
]);
export type SummaryOutput = z.infer<typeof SummaryOutputSchema>;

export interface SummaryInput {
  document: string;
}

export const SUMMARY_GENERATION_VERSION = 1;

/**
 * The card's methodology: the document in the system's prompt as the one user message, no system
 * message. The answer is a summary, or a refusal / guardrail / empty answer (a recorded failure,
 * final like an answer); HTTP errors are failed calls (recorded, and sent again by the next run).
 */
export const summaryGenerationKind: TaskKind<SystemConfig, SummaryInput, SummaryOutput> & {
  prompt(config: SystemConfig, input: SummaryInput): string;
} = {
  name: 'summary_generation',
  version: SUMMARY_GENERATION_VERSION,
  cacheTag: `loupe-task:summary_generation:${SUMMARY_GENERATION_VERSION}`,
  itemNoun: 'document',
  answererNoun: 'system',
  parseErrors: 'retry',
  configHash: systemConfigHash,
  prompt: (config, input) => fillTemplate(config.prompt, { document: input.document }),
  buildRequest(config, input): ChatRequestBody {
    return {
      model: config.model,
      messages: [{ role: 'user', content: summaryGenerationKind.prompt(config, input) }],
      temperature: config.temperature,
      top_p: config.topP,
      max_tokens: config.maxTokens,
      ...config.extra,
    };
  },
  keyMaterial: (input) => [sha256Hex(input.document)],
  interpret(completion) {
    const read = readSummaryAnswer(completion.content, completion.finishReason);
    if (read.failure !== null) return { ok: true, output: { failure: read.failure, text: read.text.slice(0, 2_000) } };
    // Final like a refusal (the same configuration would write it again): no summary, no units.
    const max = LIMITS.generatedSummaryChars.max;
    if (read.text.length > max) {
      return {
        ok: true,
        output: {
          failure: 'error',
          text: `an answer of ${read.text.length.toLocaleString('en-US')} characters, longer than the ${max.toLocaleString('en-US')} a generated summary may have (not stored as a summary)`,
        },
      };
    }
    return { ok: true, output: { summary: read.text } };
  },
};

export function summaryGenerationSetup(repo: Repository, who: System, sel: Selection) {
  const kind = summaryGenerationKind;
  const ref = { name: kind.name, version: kind.version, schema: SummaryOutputSchema };
  const hash = kind.configHash(who.config);
  const text = documentTexts(repo.corpus);
  type Item = { documentKey: number; docId: string };
  const items: Item[] = [];
  let missing = 0;
  let kept = 0;
  for (const d of repo.corpus.selectDocuments(sel.dataset!)) {
    if (!d.hasText) missing += 1;
    else if (
      repo.systems.systemOutput(who.systemId, d.documentKey)?.summaryKey != null &&
      repo.tasks.forKind(ref).result(hash, `document:${d.documentKey}`) === null
    )
      kept += 1;
    else items.push({ documentKey: d.documentKey, docId: d.docId });
  }
  const summaryIdFor = (item: Item) => {
    const base = `${who.name}:${item.docId}`;
    if (!repo.corpus.summaryIdTaken(item.documentKey, base)) return base;
    return `${base}:${hash.slice(0, 12)}`;
  };
  const write = (item: Item, output: SummaryOutput | null, errorKind: string | null, errorMessage: string | null) => {
    const existing = repo.systems.systemOutput(who.systemId, item.documentKey);
    if (existing?.summaryKey != null) return; // a stored summary is never replaced
    if (output !== null && 'summary' in output) {
      const spans = splitSentences(output.summary);
      const summaryId = summaryIdFor(item);
      if (repo.corpus.summaryIdTaken(item.documentKey, summaryId)) return;
      const summaryKey = repo.systems.insertGeneratedSummary({
        documentKey: item.documentKey,
        summaryId,
        text: output.summary,
        meta: { system: who.name, model: who.config.model, config_hash: hash },
        units: spans.map((sp, idx) => ({
          idx,
          text: sp.text,
          start: sp.start,
          end: sp.end,
          fragment: isLikelyFragment(sp.text),
        })),
        splitter: SPLITTER,
      });
      repo.systems.recordSystemOutput({
        systemId: who.systemId,
        documentKey: item.documentKey,
        configHash: hash,
        summaryKey,
        failure: null,
        failureMessage: null,
      });
      return;
    }
    if (output !== null && 'failure' in output) {
      repo.systems.recordSystemOutput({
        systemId: who.systemId,
        documentKey: item.documentKey,
        configHash: hash,
        summaryKey: null,
        failure: output.failure,
        failureMessage: output.text.slice(0, 2_000),
      });
      return;
    }
    const message = errorMessage ?? errorKind ?? 'the call failed';
    repo.systems.recordSystemOutput({
      systemId: who.systemId,
      documentKey: item.documentKey,
      configHash: hash,
      summaryKey: null,
      failure: failureOfError(message),
      failureMessage: message.slice(0, 2_000),
    });
  };
  const results = repo.tasks.forKind(ref);
  const notes: string[] = [];
  if (missing > 0) notes.push(`${plural(missing, 'document')} left out: the text is missing.`);
  if (kept > 0)
    notes.push(
      `${plural(kept, 'document')} keep the summary the system wrote under an earlier configuration (remove the system, or add it under another name, to compare configurations).`,
    );
  return setupOf<SystemConfig, Item, SummaryInput, SummaryOutput>(repo, kind, who.config, {
    kind: kind as unknown as TaskKind<never, SummaryInput, SummaryOutput>,
    ref,
    configHash: hash,
    items,
    itemKey: (i) => `document:${i.documentKey}`,
    resolve: (i) => {
      const t = text(i.documentKey);
      return t === null ? null : { document: t };
    },
    label: (i) => `document ${i.docId}`,
    afterSave(batch) {
      for (const r of batch)
        write(
          r.item,
          r.output,
          r.errorKind ?? (r.output === null ? 'parse_error' : null),
          r.errorMessage ?? r.parseError,
        );
    },
    repair() {
      repo.transaction(() => {
        for (const i of items) {
          const r = results.result(hash, `document:${i.documentKey}`);
          if (r) write(i, r.errorKind === null ? r.output : null, r.errorKind, r.errorMessage);
        }
      });
    },
    missing,
    notes,
  });
}
