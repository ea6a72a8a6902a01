/**
 * What the exports gain from review: per unit the adjudicated label, its source and
 * the corrected global label (label export); one row per review decision (review export); and
 * the dataset card, a JSON document describing the export (counts, who, when, Loupe version,
 * splitters, judge configurations without keys, the label rules).
 *
 * The card never holds an API key or an environment value: judge configurations are rebuilt
 * from an allow-list of fields (no `apiKeyEnv`, URLs without credentials, query or fragment, the
 * prompt as a hash), every string of a judge entry goes through `redact`, and nothing here reads
 * the environment. Import sources are reduced to file names (no local paths).
 */
import { basename } from 'node:path';
import { createHash } from 'node:crypto';
import { ERROR_TYPES, LOUPE_VERSION, type GlobalLabel, type HumanLabel } from '../../../shared/domain';
import { REVIEW_DEFAULT_CAP, REVIEW_DEFAULT_FAST_MS } from '../../../shared/api';
import { DEFAULT_TEMPLATE } from '../../../shared/judges/config';
import { redact } from '../../../shared/judges/redact';
import type { Repository } from '../../../db/repository';
import type { CardJudgeRow } from '../../../db/reviewRepository';
import type { SummaryScope } from '../../../db/summaryScope';
import {
  CORRECTION_RULE,
  computeCorrections,
  computeTable4,
  correctionOf,
  defaultPanel,
  isFast,
  resolvedLabel,
  type LabelSource,
  type LoadedDataset,
} from '../../../shared/review';
import { ADJUDICATION_QUEUE } from '../../../shared/analysis/human-label';
import { compareByDocThenSummary } from '../../../shared/analysis/prepare';
import { loadDataset } from './load';
import { EXPORT_BATCH_SUMMARIES } from '../export/files';

export interface UnitAdjudication {
  adjudicatedLabel: HumanLabel | null;
  adjudicatedSource: LabelSource | null;
  correctedGlobalLabel: GlobalLabel | null;
}

function datasetsIn(repo: Repository, dataset: string | null, keys: SummaryScope = null): LoadedDataset[] {
  const names = repo.review.datasetNames().filter((name) => dataset === null || name === dataset);
  return names.map((name) => loadDataset(repo.review, name, keys));
}

/**
 * Per unit id: the adjudicated-or-resolved label, its source and the summary's corrected global
 * label; of the summaries `keys` when given (an export's batch), else of the dataset.
 */
export function unitAdjudications(
  repo: Repository,
  dataset: string | null,
  keys: readonly number[] | null = null,
): Map<number, UnitAdjudication> {
  const out = new Map<number, UnitAdjudication>();
  for (const loaded of datasetsIn(repo, dataset, keys)) {
    for (const summary of loaded.summaries) {
      const corrected = correctionOf(summary).correctedLabel;
      for (const unit of summary.units) {
        const resolved = resolvedLabel(unit);
        out.set(unit.row.id, {
          adjudicatedLabel: resolved?.label ?? null,
          adjudicatedSource: resolved?.source ?? null,
          correctedGlobalLabel: corrected,
        });
      }
    }
  }
  return out;
}

export const REVIEW_EXPORT_COLUMNS = [
  'dataset',
  'doc_id',
  'summary_id',
  'global_label',
  'corrected_global_label',
  'sentence_index',
  'sentence',
  'reviewer',
  'queue',
  'label',
  'error_type',
  'note',
  'counts_in_audit',
  'blind_time_ms',
  'time_spent_ms',
  'fast',
  'revisions',
  'first_decided_at',
  'decided_at',
  'judge_labels',
  'annotation_labels',
  'loupe_version',
] as const;

/**
 * One row per current review decision with a label (sentence × adjudicator), by dataset, doc id,
 * summary id, sentence, adjudicator. `counts_in_audit`: the decision is part of the unit's
 * audit-adjudicated label (human-human queue; shared/analysis/human-label.ts). `fast`: blind time < 2 s.
 */
export function* reviewRecords(
  repo: Repository,
  dataset: string | null,
  fastMs = REVIEW_DEFAULT_FAST_MS,
): Generator<Record<string, unknown>> {
  for (const name of repo.review.datasetNames().filter((n) => dataset === null || n === dataset)) {
    // Only summaries someone reviewed have rows: read those, a batch at a time, in export order.
    const reviewed = repo.review.reviewedSummaries(name).sort(compareByDocThenSummary);
    for (let at = 0; at < reviewed.length; at += EXPORT_BATCH_SUMMARIES)
      yield* reviewRows(
        loadDataset(
          repo.review,
          name,
          reviewed.slice(at, at + EXPORT_BATCH_SUMMARIES).map((r) => r.key),
        ),
        fastMs,
      );
  }
}

/** The rows of one loaded batch, in doc id, summary id, sentence and adjudicator order. */
function* reviewRows(loaded: LoadedDataset, fastMs: number): Generator<Record<string, unknown>> {
  const summaries = [...loaded.summaries].sort((a, b) => compareByDocThenSummary(a.row, b.row));
  for (const summary of summaries) {
    const corrected = correctionOf(summary).correctedLabel;
    for (const unit of summary.units) {
      const decisions = unit.decisions
        .filter((d) => d.label !== null)
        .sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0));
      for (const d of decisions) {
        yield {
          dataset: loaded.name,
          doc_id: summary.row.docId,
          summary_id: summary.row.summaryId,
          global_label: summary.row.globalLabel,
          corrected_global_label: corrected,
          sentence_index: unit.row.index,
          sentence: unit.row.text,
          reviewer: d.annotator,
          queue: d.queue,
          label: d.label,
          error_type: d.errorType,
          note: d.note,
          counts_in_audit: d.queue === ADJUDICATION_QUEUE && unit.auditAdjudicated !== null,
          blind_time_ms: d.blindTimeMs,
          time_spent_ms: d.totalTimeMs,
          fast: isFast(d, fastMs),
          revisions: d.events - 1,
          first_decided_at: d.firstAt,
          decided_at: d.lastAt,
          judge_labels: Object.fromEntries(Object.entries(unit.analysis.judges).map(([judge, p]) => [judge, p.hard])),
          annotation_labels: Object.fromEntries(unit.annotations.map((a) => [a.annotator, a.label])),
          loupe_version: LOUPE_VERSION,
        };
      }
    }
  }
}

// --- dataset card ---------------------------------------------------------------------------

export const CARD_FORMAT = 'loupe-dataset-card/1';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A URL without user, password, query or fragment (a key could hide in any of them). */
function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return null;
  }
}

/** Every string redacted (key-shaped values replaced), recursively. */
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v)]));
  return value;
}

/** The answer-relevant configuration of a judge from an allow-list of fields; never a key or a key's source. */
export function cardJudge(row: CardJudgeRow): Record<string, unknown> {
  let config: Record<string, unknown> = {};
  try {
    const parsed: unknown = row.config === null ? {} : JSON.parse(row.config);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      config = parsed as Record<string, unknown>;
  } catch {
    config = {};
  }
  let settings: Record<string, unknown>;
  if (row.kind === 'endpoint') {
    const template = typeof config.template === 'string' ? config.template : null;
    settings = {
      base_url: safeUrl(config.baseUrl),
      model: config.model ?? null,
      temperature: config.temperature ?? null,
      top_p: config.topP ?? null,
      max_tokens: config.maxTokens ?? null,
      soft: config.soft ?? null,
      template_sha256: template === null ? null : sha256(template),
      template_is_default: template === DEFAULT_TEMPLATE,
      extra: config.extra ?? {},
    };
  } else if (row.kind === 'baseline') {
    const { kind: _kind, ...rest } = config;
    settings = rest;
  } else {
    settings = {};
  }
  return redactDeep({
    name: row.name,
    kind: row.kind,
    config_hash: row.configHash,
    versions: row.versions,
    predictions: row.predictions,
    settings,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }) as Record<string, unknown>;
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

export const CARD_RULES = {
  human_label:
    "Per sentence, the annotators' current annotation-phase labels: one annotator, or the label all agree on; annotators who disagree leave it unresolved unless adjudicated.",
  adjudicated_label:
    'A review-phase decision is the adjudicated label of its sentence. It enters p̂, ε̂ and the human composition only when it was recorded from the human-vs-human disagreement queue (the adjudicators agreeing, on a sentence labeled by ≥ 2 annotators): source "adjudicator". Decisions from the suspicious, human-vs-judge and judges-split queues (and imported review labels) were prompted by the judges, so they feed only Table 4 and the corrected global label: source "reviewer".',
  corrected_global_label: CORRECTION_RULE,
  fast_decision: `A decision is flagged as implausibly fast when its blind time (the first decision on the sentence) is under ${REVIEW_DEFAULT_FAST_MS} ms.`,
} as const;

/** The dataset card: what an export holds and how it was made. */
export function buildCard(repo: Repository, dataset: string | null, projectName: string): Record<string, unknown> {
  const stats = repo.datasetStats().filter((d) => dataset === null || d.name === dataset);
  const labelCounts = repo.review.labelCounts(dataset);
  const people = repo.review.people(dataset);
  const splitters = repo.review.splitters(dataset);
  const samples = repo.review.samples(dataset);
  const loaded = new Map(datasetsIn(repo, dataset).map((d) => [d.name, d]));
  const datasets = stats.map((s) => {
    const data = loaded.get(s.name)!;
    const counts = (phase: 'annotation' | 'review') => {
      const c = labelCounts.find((l) => l.dataset === s.name && l.phase === phase);
      return {
        events: c?.events ?? 0,
        current_labels: c?.current ?? 0,
        sentences: c?.units ?? 0,
        people: c?.people ?? 0,
        first_at: c?.firstAt ?? null,
        last_at: c?.lastAt ?? null,
      };
    };
    const corrections = computeCorrections(data);
    const table = computeTable4(data, defaultPanel(data), REVIEW_DEFAULT_CAP, REVIEW_DEFAULT_FAST_MS);
    return {
      name: s.name,
      documents: s.documents,
      documents_missing: s.documentsMissing,
      summaries: s.summaries,
      sentences: s.units,
      global_labels: countBy(data.summaries, (x) =>
        x.row.globalLabel === null ? 'none' : x.row.globalLabel === 1 ? 'faithful' : 'unfaithful',
      ),
      splitters: splitters
        .filter((x) => x.dataset === s.name)
        .map(({ splitter, version, units }) => ({ splitter, version, sentences: units })),
      samples: samples.filter((x) => x.dataset === s.name).map(({ dataset: _d, ...rest }) => rest),
      annotation: counts('annotation'),
      review: counts('review'),
      people: people.filter((p) => p.dataset === s.name).map(({ dataset: _d, ...rest }) => rest),
      review_table: table,
      corrections: { summaries: corrections.length, flips: corrections.filter((c) => c.flipped).length },
    };
  });
  return {
    format: CARD_FORMAT,
    project: projectName,
    generated_at: new Date().toISOString(),
    loupe_version: LOUPE_VERSION,
    schema_version: repo.schemaVersion(),
    project_created_at: repo.getMeta('created_at'),
    project_created_by: repo.getMeta('created_by'),
    dataset_filter: dataset,
    datasets,
    judges: repo.review.cardJudges(dataset).map(cardJudge),
    imports: repo.review.imports().map((i) => ({
      kind: i.kind,
      files: (JSON.parse(i.files) as unknown[]).map((f) => (typeof f === 'string' ? basename(f) : null)),
      content_sha256: i.contentHash,
      summaries: i.summaries,
      labels: i.labels,
      imported_at: i.createdAt,
    })),
    error_types: [...ERROR_TYPES],
    rules: CARD_RULES,
  };
}
