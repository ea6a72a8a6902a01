/**
 * The worked example of the analysis (test/fixtures/analysis/worked-example.json) and the
 * AnalysisDataset a repository should build from it, for the tests that check the pure analysis,
 * its wiring and the CLI against the same hand-derived numbers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  resolveHumanLabel,
  type AnalysisDataset,
  type AnalysisSummary,
  type JudgePrediction,
} from '../../shared/analysis';
import type { HumanLabel } from '../../shared/domain';

export interface WorkedExample {
  dataset: string;
  judges: string[];
  settings: { bootstrap: number; seed: number; cap: number };
  summaries: Array<
    { dataset: string; doc_id: string; summary_id: string; label: 0 | 1 | null; sentences: string[] } & Record<
      string,
      unknown
    >
  >;
  labels: Array<{
    summary_id: string;
    sentence_index: number;
    label: HumanLabel;
    annotator: string;
    phase: 'annotation' | 'review';
  }>;
  predictions: Array<{
    summary_id: string;
    sentence_index: number;
    judge: string;
    hard: 0 | 1 | null;
    soft: number | null;
  }>;
}

/** The fixture; `Expected` types its `expected` block where a test reads it. */
export function loadWorkedExample<Expected = unknown>(): WorkedExample & { expected: Expected } {
  const path = join(import.meta.dirname, '..', 'fixtures', 'analysis', 'worked-example.json');
  return JSON.parse(readFileSync(path, 'utf8')) as WorkedExample & { expected: Expected };
}

/** What the repository does: group annotation-phase labels by annotator, resolve, attach the rest. */
export function datasetFromFixture(data: WorkedExample): AnalysisDataset {
  const key = (summaryId: string, index: number) => `${summaryId}\u0000${index}`;
  const annotation = new Map<string, Map<string, HumanLabel>>();
  const review = new Map<string, HumanLabel>();
  for (const label of data.labels) {
    const k = key(label.summary_id, label.sentence_index);
    if (label.phase === 'review') review.set(k, label.label);
    else annotation.set(k, (annotation.get(k) ?? new Map()).set(label.annotator, label.label));
  }
  const predictions = new Map<string, Record<string, JudgePrediction>>();
  for (const p of data.predictions) {
    const k = key(p.summary_id, p.sentence_index);
    predictions.set(k, { ...(predictions.get(k) ?? {}), [p.judge]: { hard: p.hard, soft: p.soft } });
  }
  const summaries: AnalysisSummary[] = data.summaries.map((s) => {
    const units = s.sentences.map((text, index) => {
      const k = key(s.summary_id, index);
      const byAnnotator = annotation.get(k) ?? new Map<string, HumanLabel>();
      const resolved = resolveHumanLabel(byAnnotator);
      return {
        index,
        text,
        human: resolved.label,
        humanStatus: resolved.status,
        review: review.get(k) ?? null,
        ratings: Object.fromEntries(byAnnotator),
        judges: predictions.get(k) ?? {},
      };
    });
    return {
      summaryId: s.summary_id,
      docId: s.doc_id,
      globalLabel: s.label,
      units,
      annotated: units.some((u) => u.humanStatus !== 'none'),
    };
  });
  return { name: data.dataset, summaries, judges: data.judges };
}
