/**
 * Every LLM task of accuracy.*, in one table the compiler checks against the contract's task list:
 * for each task, its kind (prompt, version, item noun), what it does in words, who answers it and
 * how it is set up over a selection. Each task lives with its feature (claims/, keyfacts/,
 * systems/, scaffold/); this table only lists them.
 */
import type { Repository } from '../../../db/repository';
import type { AccuracyTask } from '../../../shared/contract/accuracy';
import { claimDecompositionKind, claimDecompositionSetup } from '../claims/decomposition-task';
import { claimVerdictKind, claimVerdictSetup } from '../claims/verdict-task';
import { keyFactExtractionKind, keyFactExtractionSetup } from '../keyfacts/extraction-task';
import {
  keyFactAlignmentClaimsKind,
  keyFactAlignmentKind,
  keyFactAlignmentSetup,
  keyFactPerFactKind,
  keyFactPerFactSetup,
} from '../keyfacts/alignment-task';
import { summaryGenerationKind, summaryGenerationSetup } from '../systems/summary-task';
import { scaffoldExtractionKind } from '../scaffold/extraction-task';
import { scaffoldExtractionPaperKind } from '../scaffold/extraction-paper-task';
import { scaffoldAlignmentKind } from '../scaffold/alignment-task';
import { scaffoldAlignmentPaperKind } from '../scaffold/alignment-paper-task';
import { scaffoldAlignmentSetup, scaffoldExtractionSetup } from '../scaffold/prompt-sets';
import { directScoreKind, directScoreSetup } from '../scaffold/direct-score-task';
import type { JsonTaskKind } from './json-kind';
import type { TaskKind } from './kind';
import type { AnySetup, Judge, Selection, System } from './setup';

interface TaskEntryBase {
  /** What the task does, for accuracy.tasks. */
  description: string;
}

/** A task a judge of judges.* answers with the task's own template (a JSON kind). */
interface JudgeTask extends TaskEntryBase {
  answeredBy: 'judge';
  kind: JsonTaskKind<never, unknown>;
  setup(repo: Repository, judge: Judge, selection: Selection): AnySetup;
}

/** A task a system of systems.* answers with its own prompt. */
interface SystemTask extends TaskEntryBase {
  answeredBy: 'system';
  kind: TaskKind<never, never, unknown>;
  /** The template shown for it (the system's own prompt is the real one). */
  template: string;
  placeholders: string[];
  setup(repo: Repository, system: System, selection: Selection): AnySetup;
}

export type TaskEntry = JudgeTask | SystemTask;

const judgeTask = <I, O>(kind: JsonTaskKind<I, O>, description: string, setup: JudgeTask['setup']): JudgeTask => ({
  answeredBy: 'judge',
  kind: kind as unknown as JsonTaskKind<never, unknown>,
  description,
  setup,
});

export const TASKS: Record<AccuracyTask, TaskEntry> = {
  claim_decomposition: judgeTask(
    claimDecompositionKind,
    'Each summary sentence → atomic standalone claims (FActScore-style, App. D; no document in the prompt). A summary gets a claim set (source model) once all its sentences are answered.',
    claimDecompositionSetup,
  ),
  keyfact_extraction: judgeTask(
    keyFactExtractionKind,
    "Each document → its key facts (the card's key fact extraction); a key-fact set of source model.",
    keyFactExtractionSetup,
  ),
  claim_verdict: judgeTask(
    claimVerdictKind,
    'Document + one claim of the current claim set → supported, or unsupported with an error type (entity, relation, number_or_date, not_in_source, other).',
    claimVerdictSetup,
  ),
  keyfact_alignment: judgeTask(
    keyFactAlignmentKind,
    "Summary lines (sentences, or with lines = claims its current claims) + every key fact → per key fact covered and the line numbers that convey it (FineSurE's alignment)." +
      ` With lines = claims the template says "claim" for "sentence" (kind keyfact_alignment_claims, version ${keyFactAlignmentClaimsKind.version}).`,
    keyFactAlignmentSetup,
  ),
  keyfact_alignment_per_fact: judgeTask(
    keyFactPerFactKind,
    "Summary claims + one key fact → covered and the claims that convey it (the card's per-key-fact prompt).",
    keyFactPerFactSetup,
  ),
  summary_generation: {
    answeredBy: 'system',
    kind: summaryGenerationKind as unknown as TaskKind<never, never, unknown>,
    description:
      'Each document → a summary by a system under test: the document in the system prompt as a single user message, no system message. Errors, refusals and guardrail answers are recorded as failures (the document scores 0.0 for that system).',
    template:
      '(the system\'s prompt: systems.add config.prompt, default "Summarize the following document.\\n\\n{document}")',
    placeholders: ['document'],
    setup: summaryGenerationSetup,
  },
  scaffold_extraction: judgeTask(
    scaffoldExtractionPaperKind,
    'Each document → its Semantic Scaffold with the paper\'s three prompts (App. G.1 facts, G.2 key questions with a brief expected answer and source sentence, G.3 entities with attributes; one request each, as printed), items tagged main or supporting; items typed "other" are left out. A scaffold version of source model once all three are answered (never over a person\'s or an imported one). Temperature 0.1, response_format json_object; an answer without a main fact is a failed call, retried.' +
      ` With prompts = combined, one request per document (kind ${scaffoldExtractionKind.name}, version ${scaffoldExtractionKind.version}; cheaper).`,
    scaffoldExtractionSetup,
  ),
  scaffold_alignment: judgeTask(
    scaffoldAlignmentPaperKind,
    "Summary sentences + the document's current scaffold → with the paper's three prompts (App. G.4 facts inferred or not with their sentences, G.5 questions answered or not, G.6 the entity attributes preserved; one request each, as printed): per fact preserved / missing, per question answered / unanswered, per attribute preserved / missing. Stored as the judge's alignment events once all three are answered. Temperature 0.1, response_format json_object." +
      ` With prompts = combined, one request per summary that also tells partial and misrepresented (kind ${scaffoldAlignmentKind.name}, version ${scaffoldAlignmentKind.version}; cheaper).`,
    scaffoldAlignmentSetup,
  ),
  direct_score: judgeTask(
    directScoreKind,
    'Document + summary → four 1–10 scores (faithfulness, completeness, understandability, hallucination) and a rationale (App. G.7); the direct score is their mean, compared beside FPS / QPS / EPS in the scaffold block to show saturation. Temperature 0.1.',
    directScoreSetup,
  ),
};
