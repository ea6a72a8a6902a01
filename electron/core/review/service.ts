/**
 * The review part of the core: review.* handlers over ReviewRepository.
 *
 * Blindness: review.queue and review.card build their answers from fields that hold no label
 * but the adjudicator's own decision (and the hosts parse outputs through the contract, which
 * strips anything else). Judge labels, other people's annotation labels and the global label are
 * read only by `reveal`, which refuses undecided sentences and keeps the summary-wide global
 * label hidden until every marked sentence of the card is decided.
 *
 * Decisions: one review-phase label event plus its queue (one committed transaction) before the
 * answer; a revision is a new event. Which decisions count where: shared/analysis/human-label.ts.
 */
import {
  ApiError,
  REVIEW_DEFAULT_CAP,
  REVIEW_DEFAULT_FAST_MS,
  type ApiHandlers,
  type ApiOutput,
  type ReviewQueueKind,
  type ReviewReveal,
} from '../../../shared/api';
import type { ReviewRepository } from '../../../db/reviewRepository';
import {
  CORRECTION_RULE,
  anonymousAnnotator,
  anonymousJudge,
  cardProgress,
  computeCorrections,
  computeQueue,
  computeTable4,
  decisionsOf,
  defaultPanel,
  isFast,
  matchesErrorType,
  unitAt,
  type LoadedDataset,
  type LoadedSummary,
  type QueueEntry,
} from '../../../shared/review';
import { loadDataset } from './load';

export type ReviewMethod = Extract<keyof ApiHandlers, `review.${string}`>;
export type ReviewHandlers = Pick<ApiHandlers, ReviewMethod>;

export interface ReviewServiceOptions {
  /** The open project's review repository (throws no_project when none is open). */
  repository: () => ReviewRepository;
}

const EMPTY_STATE = { label: null, errorType: null, note: null };

function requireDataset(repo: ReviewRepository, dataset: string): void {
  if (!repo.datasetNames().includes(dataset))
    throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project.` });
}

/** The panel asked for (each judge must exist), or the default: every judge with a prediction in the dataset. */
function panelOf(repo: ReviewRepository, dataset: LoadedDataset, judges: string[] | undefined): string[] {
  if (judges === undefined) return defaultPanel(dataset);
  const unknown = judges.filter((j) => !repo.judgeExists(j));
  if (unknown.length > 0)
    throw new ApiError({
      code: 'not_found',
      message: `No judge ${unknown.map((j) => `"${j}"`).join(', ')} in this project.`,
    });
  return [...new Set(judges)];
}

interface Card {
  dataset: LoadedDataset;
  summary: LoadedSummary;
  entry: QueueEntry;
  panel: string[];
}

/** A summary of a queue, with its marked sentences; not_found when the queue does not hold it. */
function loadCard(repo: ReviewRepository, key: number, queue: ReviewQueueKind, judges: string[] | undefined): Card {
  const name = repo.datasetOfSummary(key);
  if (name === null) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
  const dataset = loadDataset(repo, name, key);
  const panel = panelOf(repo, dataset, judges);
  const entry = computeQueue(queue, dataset.summaries, panel).entries[0];
  if (!entry)
    throw new ApiError({
      code: 'not_found',
      message: `Summary ${dataset.summaries[0]!.row.summaryId} of ${name} is not in the ${queue} queue.`,
    });
  return { dataset, summary: entry.summary, entry, panel };
}

function progressOf(card: Card, reviewer: string): { marked: number; decided: number } {
  return cardProgress(card.entry, reviewer);
}

/** Judge labels, other annotators' labels and (once every marked sentence is decided) the global label, for decided sentences. */
function reveal(
  repo: ReviewRepository,
  card: Card,
  reviewer: string,
  unitIds: number[] | undefined,
  anonymizeJudges: boolean,
  anonymizeAnnotators: boolean,
): ReviewReveal {
  const { summary, entry } = card;
  const markedUnits = summary.units.filter((u) => entry.marked.includes(u.row.index));
  let chosen = markedUnits.filter((u) => decisionsOf(u, reviewer).length > 0);
  if (unitIds !== undefined) {
    chosen = [];
    for (const id of unitIds) {
      const unit = summary.units.find((u) => u.row.id === id);
      if (!unit)
        throw new ApiError({
          code: 'invalid_input',
          message: `Unit ${id} is not a sentence of summary ${summary.row.summaryId}.`,
        });
      if (!entry.marked.includes(unit.row.index))
        throw new ApiError({
          code: 'invalid_input',
          message: `Sentence ${unit.row.index} is context in this queue, not a sentence to decide.`,
        });
      if (decisionsOf(unit, reviewer).length === 0) {
        throw new ApiError({
          code: 'conflict',
          message: `Sentence ${unit.row.index} is not decided by ${reviewer} yet: decide it before its labels are shown.`,
        });
      }
      if (!chosen.includes(unit)) chosen.push(unit);
    }
  } else if (chosen.length === 0) {
    throw new ApiError({
      code: 'conflict',
      message: `No sentence of summary ${summary.row.summaryId} is decided by ${reviewer} yet: decide one before its labels are shown.`,
    });
  }
  chosen.sort((a, b) => a.row.index - b.row.index);

  const judgeOrder = card.dataset.judgesByCreation;
  const judgeName = (name: string) => (anonymizeJudges ? anonymousJudge(judgeOrder, name) : name);
  const panel = card.panel
    .filter((j) => judgeOrder.includes(j))
    .sort((a, b) => judgeOrder.indexOf(a) - judgeOrder.indexOf(b));
  const annotatorOrder = anonymizeAnnotators ? repo.datasetAnnotators(card.dataset.name) : [];
  const annotatorName = (name: string) => (anonymizeAnnotators ? anonymousAnnotator(annotatorOrder, name) : name);
  const allDecided = markedUnits.every((u) => decisionsOf(u, reviewer).length > 0);

  return {
    key: summary.row.key,
    dataset: card.dataset.name,
    summaryId: summary.row.summaryId,
    globalLabel: allDecided ? summary.row.globalLabel : null,
    globalLabelHidden: !allDecided,
    sentences: chosen.map((unit) => {
      const own = decisionsOf(unit, reviewer)[0]!;
      return {
        unitId: unit.row.id,
        index: unit.row.index,
        decision: { label: own.label, errorType: own.errorType, note: own.note },
        judges: panel
          .filter((j) => Object.hasOwn(unit.analysis.judges, j))
          .map((j) => ({
            judge: judgeName(j),
            hard: unit.analysis.judges[j]!.hard,
            soft: unit.analysis.judges[j]!.soft,
          })),
        annotators: unit.annotations
          .filter((a) => a.annotator !== reviewer)
          .sort((a, b) => a.annotatorId - b.annotatorId)
          .map((a) => ({ annotator: annotatorName(a.annotator), label: a.label!, errorType: a.errorType })),
      };
    }),
  };
}

export function createReviewHandlers(options: ReviewServiceOptions): ReviewHandlers {
  const repo = () => options.repository();

  return {
    'review.queue': async (input) => {
      const r = repo();
      requireDataset(r, input.dataset);
      const dataset = loadDataset(r, input.dataset, r.queueCandidates(input.dataset, input.queue));
      const panel = panelOf(r, dataset, input.judges);
      const result = computeQueue(input.queue, dataset.summaries, panel);
      const matching = input.errorType
        ? result.entries.filter((e) => matchesErrorType(e, input.errorType!))
        : result.entries;
      const reviewer = input.reviewer ?? null;
      return {
        queue: input.queue,
        dataset: input.dataset,
        judgeCount: input.queue === 'human-human' ? 0 : panel.length,
        pool: result.pool,
        matching: matching.length,
        cap: input.cap,
        fastMs: input.fastMs,
        items: matching.slice(0, input.cap).map(({ summary, marked }) => {
          const decided: number[] = [];
          const fast: number[] = [];
          for (const index of marked) {
            const decisions = decisionsOf(unitAt(summary, index)!, reviewer);
            if (decisions.length > 0) decided.push(index);
            if (decisions.some((d) => isFast(d, input.fastMs))) fast.push(index);
          }
          return {
            key: summary.row.key,
            summaryId: summary.row.summaryId,
            docId: summary.row.docId,
            sentences: summary.units.length,
            marked,
            decided,
            fast,
            documentMissing: summary.row.document === null,
          };
        }),
      };
    },

    'review.card': async ({ key, queue, reviewer, judges }) => {
      const card = loadCard(repo(), key, queue, judges);
      const { summary, entry } = card;
      return {
        key: summary.row.key,
        dataset: card.dataset.name,
        summaryId: summary.row.summaryId,
        docId: summary.row.docId,
        queue,
        summary: summary.row.summary,
        document: summary.row.document,
        splitter: summary.units[0]?.row.splitter ?? '',
        units: summary.units.map((u) => {
          const own = u.decisions.find((d) => d.annotator === reviewer);
          return {
            id: u.row.id,
            index: u.row.index,
            text: u.row.text,
            start: u.row.start,
            end: u.row.end,
            fragment: u.row.fragment,
            marked: entry.marked.includes(u.row.index),
            decision: own ? { label: own.label, errorType: own.errorType, note: own.note } : { ...EMPTY_STATE },
          };
        }),
        progress: progressOf(card, reviewer),
      };
    },

    'review.record': async (input): Promise<ApiOutput<'review.record'>> => {
      const r = repo();
      const key = r.unitSummaryKey(input.unitId);
      if (key === null) throw new ApiError({ code: 'not_found', message: `No unit ${input.unitId}` });
      if (input.state.errorType !== null && input.state.label !== 'unfaithful') {
        throw new ApiError({ code: 'invalid_input', message: 'An error type applies only to an Unfaithful sentence.' });
      }
      const card = loadCard(r, key, input.queue, input.judges);
      const unit = card.summary.units.find((u) => u.row.id === input.unitId)!;
      if (!card.entry.marked.includes(unit.row.index)) {
        throw new ApiError({
          code: 'invalid_input',
          message: `Sentence ${unit.row.index} is context in the ${input.queue} queue, not a sentence to decide.`,
        });
      }
      if (card.summary.row.document === null && input.state.label !== null) {
        throw new ApiError({
          code: 'conflict',
          message: 'This summary has no document yet; attach its document before reviewing.',
        });
      }
      const eventId = r.recordDecision({
        unitId: input.unitId,
        annotatorId: r.ensureAnnotator(input.reviewer),
        label: input.state.label,
        errorType: input.state.errorType,
        note: input.state.note,
        timeSpentMs: input.timeSpentMs,
        cause: input.cause,
        queue: input.queue,
        judges: card.panel,
      });
      // Re-read after the commit: the answer shows what is stored.
      const after = loadCard(r, key, input.queue, input.judges);
      return {
        eventId,
        unitId: input.unitId,
        state: input.state,
        progress: progressOf(after, input.reviewer),
        reveal:
          input.state.label === null
            ? null
            : reveal(r, after, input.reviewer, [input.unitId], input.anonymizeJudges, input.anonymizeAnnotators),
      };
    },

    'review.reveal': async ({ key, queue, reviewer, judges, unitIds, anonymizeJudges, anonymizeAnnotators }) => {
      const r = repo();
      return reveal(r, loadCard(r, key, queue, judges), reviewer, unitIds, anonymizeJudges, anonymizeAnnotators);
    },

    'review.table': async ({ dataset, judges, cap, fastMs }) => {
      const r = repo();
      if (dataset !== undefined) requireDataset(r, dataset);
      return (dataset === undefined ? r.datasetNames() : [dataset]).map((name) => {
        // Table 4 is over the suspicious list: only the summaries that queue can hold are read.
        const loaded = loadDataset(r, name, r.queueCandidates(name, 'suspicious'));
        return computeTable4(
          loaded,
          panelOf(r, loaded, judges),
          cap ?? REVIEW_DEFAULT_CAP,
          fastMs ?? REVIEW_DEFAULT_FAST_MS,
        );
      });
    },

    'review.corrections': async ({ dataset }) => {
      const r = repo();
      if (dataset !== undefined) requireDataset(r, dataset);
      return (dataset === undefined ? r.datasetNames() : [dataset]).map((name) => {
        const summaries = computeCorrections(loadDataset(r, name));
        return { dataset: name, rule: CORRECTION_RULE, summaries, flips: summaries.filter((s) => s.flipped) };
      });
    },
  };
}
