/**
 * Input checks and the derived views every part of the analysis shares.
 */
import { HUMAN_LABELS } from '../domain';
import { checkSeed } from '../stats/prng';
import {
  DEFAULT_SETTINGS,
  HUMAN_LABEL_RULES,
  REFERENCE_SETS,
  UNRESOLVED_STATUSES,
  type AnalysisDataset,
  type AnalysisSettings,
  type AnalysisSummary,
  type AnalysisUnit,
  type JudgePrediction,
} from './types';

/** Thrown when the analysis input is inconsistent (a bug upstream, not a user error). */
export class AnalysisInputError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    const shown = problems.slice(0, 10).join('\n');
    const more = problems.length > 10 ? `\n… and ${problems.length - 10} more` : '';
    super(`Analysis input is inconsistent (${problems.length} problem(s)):\n${shown}${more}`);
    this.name = 'AnalysisInputError';
    this.problems = problems;
  }
}

export function resolveSettings(settings: Partial<AnalysisSettings> | undefined): Required<AnalysisSettings> {
  const resolved = { ...DEFAULT_SETTINGS, ...stripUndefined(settings ?? {}) };
  const problems: string[] = [];
  if (!Number.isSafeInteger(resolved.bootstrap) || resolved.bootstrap < 0)
    problems.push(`bootstrap must be an integer ≥ 0, got ${resolved.bootstrap}`);
  try {
    checkSeed(resolved.seed);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!Number.isSafeInteger(resolved.cap) || resolved.cap < 0)
    problems.push(`cap must be an integer ≥ 0, got ${resolved.cap}`);
  if (!Number.isSafeInteger(resolved.simulationPoints) || resolved.simulationPoints < 2) {
    problems.push(`simulationPoints must be an integer ≥ 2, got ${resolved.simulationPoints}`);
  }
  if (!Number.isSafeInteger(resolved.simulationMinSummaries) || resolved.simulationMinSummaries < 1) {
    problems.push(`simulationMinSummaries must be an integer ≥ 1, got ${resolved.simulationMinSummaries}`);
  }
  if (!(HUMAN_LABEL_RULES as readonly string[]).includes(resolved.humanLabel))
    problems.push(`humanLabel must be one of ${HUMAN_LABEL_RULES.join(', ')}, got ${String(resolved.humanLabel)}`);
  if (!(REFERENCE_SETS as readonly string[]).includes(resolved.reference))
    problems.push(`reference must be one of ${REFERENCE_SETS.join(', ')}, got ${String(resolved.reference)}`);
  if (typeof resolved.includeRevealed !== 'boolean')
    problems.push(`includeRevealed must be true or false, got ${String(resolved.includeRevealed)}`);
  if (resolved.compareSource !== null && (typeof resolved.compareSource !== 'string' || resolved.compareSource === ''))
    problems.push(`compareSource must be "people", a judge's name or null, got ${String(resolved.compareSource)}`);
  if (problems.length > 0) throw new AnalysisInputError(problems);
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const LABELS = new Set<string>(HUMAN_LABELS);
const STATUSES = new Set<string>(['none', 'single', 'agreed', 'adjudicated', 'disagreement', 'majority', 'tie']);

function checkUnit(unit: AnalysisUnit, where: string, problems: string[]): void {
  if (!Number.isSafeInteger(unit.index) || unit.index < 0) problems.push(`${where}: index must be an integer ≥ 0`);
  if (typeof unit.text !== 'string') problems.push(`${where}: text must be a string`);
  if (unit.human !== null && !LABELS.has(unit.human))
    problems.push(`${where}: unknown human label "${String(unit.human)}"`);
  if (!STATUSES.has(unit.humanStatus)) problems.push(`${where}: unknown human status "${String(unit.humanStatus)}"`);
  const unresolved = UNRESOLVED_STATUSES.includes(unit.humanStatus);
  if (unresolved !== (unit.human === null))
    problems.push(`${where}: human label ${String(unit.human)} does not fit status ${unit.humanStatus}`);
  if (unit.review !== undefined && unit.review !== null && !LABELS.has(unit.review))
    problems.push(`${where}: unknown review label "${String(unit.review)}"`);
  for (const [judge, prediction] of Object.entries(unit.judges)) {
    if (prediction.hard !== null && prediction.hard !== 0 && prediction.hard !== 1)
      problems.push(`${where}, judge ${judge}: hard must be 0, 1 or null`);
    if (
      prediction.soft !== null &&
      !(typeof prediction.soft === 'number' && prediction.soft >= 0 && prediction.soft <= 1)
    ) {
      problems.push(`${where}, judge ${judge}: soft must be in [0, 1] or null, got ${String(prediction.soft)}`);
    }
  }
}

export function checkDataset(dataset: AnalysisDataset): void {
  const problems: string[] = [];
  if (typeof dataset.name !== 'string') problems.push('dataset name must be a string');
  if (new Set(dataset.judges).size !== dataset.judges.length)
    problems.push(`dataset ${dataset.name}: judge names repeat`);
  const ids = new Set<string>();
  for (const summary of dataset.summaries) {
    const where = `dataset ${dataset.name}, summary ${summary.summaryId}`;
    if (ids.has(summary.summaryId)) problems.push(`${where}: summary id repeats`);
    ids.add(summary.summaryId);
    if (summary.globalLabel !== null && summary.globalLabel !== 0 && summary.globalLabel !== 1)
      problems.push(`${where}: global label must be 0, 1 or null`);
    summary.units.forEach((unit, position) => checkUnit(unit, `${where}, unit ${position}`, problems));
  }
  if (problems.length > 0) throw new AnalysisInputError(problems);
}

/**
 * The diagnostic scope (docs/methods.md, "Scopes"): summaries with fewer sentences are left out of
 * the min/mean/max correlations, ε₀, the verdict and the p̂/ε̂ it uses, composition, the
 * hidden-bias simulation and the suspicious queue (all aggregators coincide). Agreement and the
 * all-units judge-error table take every annotated summary.
 */
export const MIN_ANALYSED_SENTENCES = 2;

export function isAnalysedSummary(summary: { units: readonly unknown[] }): boolean {
  return summary.units.length >= MIN_ANALYSED_SENTENCES;
}

/** ≥ 1 annotation-phase label, unclear included (the flag, or any unit with a label status). */
export function isAnnotated(summary: AnalysisSummary): boolean {
  return summary.annotated || summary.units.some((unit) => unit.humanStatus !== 'none');
}

/** A human label that enters rates: faithful (1) or unfaithful (0); anything else is null. */
export function usableHumanValue(unit: AnalysisUnit): 0 | 1 | null {
  return unit.human === 'faithful' ? 1 : unit.human === 'unfaithful' ? 0 : null;
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sort key of lists: doc_id, then summary_id, in code-unit order (JavaScript's default string order). */
export function compareByDocThenSummary(
  a: { docId: string; summaryId: string },
  b: { docId: string; summaryId: string },
): number {
  return compareCodeUnits(a.docId, b.docId) || compareCodeUnits(a.summaryId, b.summaryId);
}

/** The judge's prediction for a unit (own keys only, so a judge named like an Object method is safe). */
export function predictionOf(unit: AnalysisUnit, judge: string): JudgePrediction | null {
  return Object.hasOwn(unit.judges, judge) ? unit.judges[judge]! : null;
}
