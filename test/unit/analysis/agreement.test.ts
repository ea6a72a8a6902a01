/**
 * Agreement in the audit: a small project imported through the real import path, with
 * two annotators overlapping on some summaries, one alone on others, a single-sentence summary
 * (in scope: agreement takes every length) and a judge. The report's `agreement`
 * block equals agreementForDataset called directly on the same labels (every summary, annotation
 * phase, current labels, exclude);
 * the report parses through the contract's schema unchanged; the Markdown shows the table; the
 * issue's `review` key mirrors suspicious.review.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { AnalysisRepository, openProjectReadOnly } from '../../../db/analysisRepository';
import { agreementForDataset, type AgreementSummary } from '../../../shared/agreement';
import { analyzeProject, renderMarkdown, type AnalysisReport } from '../../../shared/analysis';
import { AnalysisReportSchema } from '../../../shared/analysis/schema';
import type { HumanLabel } from '../../../shared/domain';
import { runImport } from '../../../electron/core/imports/run';
import { computeReport } from '../../../electron/core/analysis/compute';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-analysis-agreement-');
const path = join(dir, 'agree.loupe');
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const upload = (name: string, rows: unknown[]) => ({ type: 'upload' as const, name, text: jsonl(rows) });

const SENTENCES = [
  'The council met on Monday evening.',
  'It approved the new budget for schools.',
  'The mayor resigned after the vote was held.',
  'Residents welcomed the plan warmly.',
];
const L: HumanLabel[] = ['faithful', 'unfaithful', 'unclear'];

// 8 summaries of 3–4 sentences and one of a single sentence (in agreement's scope, out of the diagnostic's).
const summaries = [
  ...Array.from({ length: 8 }, (_, g) => ({
    dataset: 'agree',
    doc_id: `doc-${g}`,
    document: SENTENCES.join(' '),
    summary_id: `s${g}`,
    summary: SENTENCES.slice(0, 3 + (g % 2)).join(' '),
    sentences: SENTENCES.slice(0, 3 + (g % 2)),
    label: g % 3 === 0 ? 0 : 1,
  })),
  {
    dataset: 'agree',
    doc_id: 'doc-single',
    document: SENTENCES.join(' '),
    summary_id: 'single',
    summary: SENTENCES[0],
    sentences: [SENTENCES[0]],
    label: 1,
  },
];

interface LabelRow {
  summary_id: string;
  sentence_index: number;
  label: HumanLabel;
  annotator: string;
}
const labels: LabelRow[] = [];
// ann-a labels s0–s5, ann-b labels s2–s7 (overlap s2–s5), deterministic pseudo-random labels with some disagreement.
for (let g = 0; g < 8; g++) {
  const m = 3 + (g % 2);
  for (let i = 0; i < m; i++) {
    const base: HumanLabel = (g * 7 + i * 3) % 4 === 0 ? 'unfaithful' : 'faithful';
    if (g <= 5)
      labels.push({
        summary_id: `s${g}`,
        sentence_index: i,
        label: g === 3 && i === 2 ? 'unclear' : base,
        annotator: 'ann-a',
      });
    if (g >= 2)
      labels.push({
        summary_id: `s${g}`,
        sentence_index: i,
        label: (g + i) % 5 === 0 ? L[(L.indexOf(base) + 1) % 2]! : base,
        annotator: 'ann-b',
      });
  }
}
labels.push({ summary_id: 'single', sentence_index: 0, label: 'faithful', annotator: 'ann-a' });
labels.push({ summary_id: 'single', sentence_index: 0, label: 'unfaithful', annotator: 'ann-b' });

const predictions = summaries.flatMap((s) =>
  s.sentences.map((_, i) => ({
    summary_id: s.summary_id,
    sentence_index: i,
    judge: 'qwen',
    hard: (i + s.summary_id.length) % 3 === 0 ? 0 : 1,
    soft: null,
  })),
);

/** The agreement input built by hand from the rows above: every summary, by annotator. */
function handInput(): AgreementSummary[] {
  return summaries
    .slice()
    .sort((a, b) => (a.summary_id < b.summary_id ? -1 : 1))
    .map((s) => ({
      summaryId: s.summary_id,
      units: s.sentences.map((_, i) => {
        const ratings: Record<string, HumanLabel> = {};
        for (const l of labels)
          if (l.summary_id === s.summary_id && l.sentence_index === i) ratings[l.annotator] = l.label;
        const values = Object.values(ratings);
        const human = values.length > 0 && values.every((v) => v === values[0]) ? values[0]! : null;
        const p = predictions.find((x) => x.summary_id === s.summary_id && x.sentence_index === i)!;
        return { ratings, human, judges: { qwen: p.hard as 0 | 1 } };
      }),
    }));
}

let report: AnalysisReport;
beforeAll(async () => {
  const db = openProjectDatabase(Database, path, { create: true });
  try {
    const repo = new Repository(db);
    await runImport(repo, { source: upload('summaries.jsonl', summaries), as: 'summaries' });
    await runImport(repo, { source: upload('labels.jsonl', labels), as: 'labels' });
    await runImport(repo, { source: upload('predictions.jsonl', predictions), as: 'predictions' });
  } finally {
    db.close();
  }
  const ro = openProjectReadOnly(Database, path);
  try {
    report = computeReport(loadAnalysisDatasets(new AnalysisRepository(ro), null), {
      bootstrap: 200,
      seed: 7,
      cap: 25,
    }).report;
  } finally {
    ro.close();
  }
}, 60_000);

describe('agreement in the audit', () => {
  it('equals agreementForDataset on the same labels (every summary length, exclude, the audit seed and replicates)', () => {
    const dataset = report.datasets[0]!;
    const direct = agreementForDataset(
      { name: 'agree', summaries: handInput(), judges: ['qwen'] },
      { unclear: 'exclude', bootstrap: 200, seed: 7 },
    );
    expect(dataset.agreement).toEqual(direct);
    // What the block rests on: the two annotators, their overlap, the single-sentence summary included.
    expect(dataset.agreement.humans.raters).toEqual(['ann-a', 'ann-b']);
    expect(dataset.agreement.humans.pairs).toHaveLength(1);
    expect(dataset.agreement.n_summaries).toBe(9);
    const overlapUnits = [2, 3, 4, 5].reduce((n, g) => n + 3 + (g % 2), 0) + 1; // + the single sentence both rated
    expect(dataset.agreement.humans.pairs[0]!.n_units).toBe(overlapUnits - 1); // s3's unclear unit is excluded
    // While the diagnostic scope leaves the single-sentence summary out.
    expect(dataset.n_summaries).toBe(8);
    expect(dataset.n_single_sentence_left_out).toBe(1);
    expect(dataset.agreement.n_units_unclear_dropped).toBe(1);
    expect(dataset.agreement.humans.krippendorff_alpha.value).not.toBeNull();
    expect(dataset.agreement.humans.krippendorff_alpha.ci).not.toBeNull();
    expect(dataset.agreement.judges.qwen!.n_units).toBeGreaterThan(0);
    expect(dataset.agreement.unclear).toBe('exclude');
    // Same as the pure path.
    expect(report).toEqual(analyzeProject(loadAgain(), { bootstrap: 200, seed: 7, cap: 25 }));
  });

  it("passes the report schema unchanged, with the review key in the issue's shape", () => {
    expect(AnalysisReportSchema.parse(report)).toEqual(report);
    const dataset = report.datasets[0]!;
    const table = dataset.suspicious.review;
    expect(dataset.review).toEqual({
      pool: table.pool,
      reviewed: table.reviewed_summaries,
      U: table.unfaithful,
      F: table.faithful,
      unclear: table.unclear,
      pct_U: table.pct_unfaithful.value === null ? null : 100 * table.pct_unfaithful.value,
    });
    const broken = structuredClone(report) as unknown as {
      datasets: Array<{ agreement: { humans: { n_units: unknown } } }>;
    };
    broken.datasets[0]!.agreement.humans.n_units = 'many';
    expect(AnalysisReportSchema.safeParse(broken).success).toBe(false);
    expect(report.definitions.agreement).toMatch(/exclude/);
  });

  it('renders the agreement table in Markdown: humans, the pair, the judge, ± half-width and n, the unclear choice', () => {
    const md = renderMarkdown(report);
    const a = report.datasets[0]!.agreement;
    expect(md).toContain('### Agreement');
    expect(md).toContain('unclear excluded');
    const alpha = a.humans.krippendorff_alpha;
    const half = ((alpha.ci![1] - alpha.ci![0]) / 2).toFixed(3);
    const humansRow = md.split('\n').find((line) => line.startsWith('| Humans (2 annotators)'))!;
    expect(humansRow).toContain(`${alpha.value!.toFixed(3)} ± ${half}`);
    expect(humansRow.trim().endsWith(`| ${a.humans.n_units} |`)).toBe(true);
    expect(md).toMatch(/\| ann-a vs ann-b \| .*Cohen /);
    expect(md).toMatch(/\| qwen vs humans \|/);
  });
});

function loadAgain() {
  const ro = openProjectReadOnly(Database, path);
  try {
    return loadAnalysisDatasets(new AnalysisRepository(ro), null);
  } finally {
    ro.close();
  }
}
