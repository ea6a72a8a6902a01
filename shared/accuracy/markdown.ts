/** The Markdown section of a dataset's accuracy block: a table per source and system, judges against people, App. D. */
import type { Estimate } from '../stats/estimate';
import type { AccuracyBlock, JudgeItemError } from './report';
import { inert, table } from '../markdown';

const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
const est = (e: Estimate | JudgeItemError | null) => (e === null ? '—' : e.ci === null ? `${num(e.value)} (n = ${e.n})` : `${num(e.value)} [${num(e.ci[0])}, ${num(e.ci[1])}] (n = ${e.n})`);

export function renderAccuracy(block: AccuracyBlock): string[] {
  const parts: string[] = ['### Summarization accuracy (faithfulness, completeness, conciseness)'];
  parts.push(
    'Per summary, then averaged over summaries (95% summary-bootstrap intervals). Faithfulness counts claims, completeness key facts; conciseness counts claims where the source says which claims convey a key fact, else sentences (FineSurE\'s scripts) — the unit is named in each row. A document for which a system produced no summary scores 0.0 on all three.',
  );
  parts.push(
    table(
      ['source', 'summaries', 'failed calls', 'faithfulness', 'completeness', 'conciseness', 'conciseness unit', 'sentence conciseness'],
      Object.entries(block.sources).map(([name, s]) => [inert(name), String(s.n_summaries), String(s.n_failed), est(s.faithfulness), est(s.completeness), est(s.conciseness), s.conciseness_unit ?? '—', est(s.sentence_conciseness)]),
    ),
  );
  const rows: string[][] = [];
  for (const [name, s] of Object.entries(block.sources)) {
    for (const [system, x] of Object.entries(s.by_system)) rows.push([inert(name), inert(system), String(x.n_summaries), String(x.n_failed), est(x.faithfulness), est(x.completeness), est(s.conciseness_unit === 'claims' ? x.conciseness : x.sentence_conciseness)]);
  }
  if (rows.length > 0) {
    parts.push('Per system:');
    parts.push(table(['source', 'system', 'summaries', 'failed calls', 'faithfulness', 'completeness', 'conciseness'], rows));
  }
  const judges = [...new Set([...Object.keys(block.claim_judges), ...Object.keys(block.keyfact_judges)])];
  if (judges.length > 0) {
    parts.push('Judges against people (share of items where the judge differs from the people\'s resolved label):');
    parts.push(table(['judge', 'claim error', 'key-fact alignment error'], judges.map((j) => [inert(j), est(block.claim_judges[j]?.claim_error ?? null), est(block.keyfact_judges[j]?.alignment_error ?? null)])));
  }
  const units = Object.entries(block.claim_units.judges);
  if (units.length > 0) {
    parts.push('App. D, claim units: Pearson of the min and mean of a sentence\'s claim verdicts with its human label (sentences with ≥ 2 claims).');
    parts.push(table(['judge', 'sentences', 'Pearson min', 'Pearson mean'], units.map(([j, u]) => [inert(j), String(u.n_sentences), est(u.min.pearson), est(u.mean.pearson)])));
    parts.push(`Review queue (human-faithful sentences where every judge flags a claim): ${block.claim_units.review_queue.length} of ${block.claim_units.human_faithful_sentences}.`);
  }
  parts.push(...block.notes.map((n) => `- ${n}`));
  return parts;
}
