/** The Markdown section of a dataset's accuracy block: a table per source and system, the system comparison, judges against people, App. D. */
import { renderComparison } from '../comparison-markdown';
import type { AccuracyBlock, JudgeItemError } from './report';
import { estimateCell as est, inert, table } from '../markdown';

export function renderAccuracy(block: AccuracyBlock): string[] {
  const parts: string[] = ['### Summarization accuracy (faithfulness, completeness, conciseness)'];
  parts.push(
    "Per summary, then averaged over summaries (95% summary-bootstrap intervals; fewer than 5 summaries: no interval). Faithfulness counts claims, completeness key facts; conciseness counts claims where the source links claims to the key facts they convey, else sentences (FineSurE's scripts) — its basis is named in each row. Zero is not undefined: a summary with no claim or sentence conveying a key fact scores 0.0. A document for which a system produced no summary scores 0.0 on all three.",
  );
  parts.push(
    table(
      ['source', 'summaries', 'failed calls', 'faithfulness', 'completeness', 'conciseness', 'conciseness basis'],
      Object.entries(block.sources).map(([name, s]) => [
        inert(name),
        String(s.n_summaries),
        String(s.n_failed),
        est(s.faithfulness),
        est(s.completeness),
        est(s.conciseness),
        s.conciseness_basis ?? '—',
      ]),
    ),
  );
  const rows: string[][] = [];
  for (const [name, s] of Object.entries(block.sources)) {
    for (const [system, x] of Object.entries(s.by_system))
      rows.push([
        inert(name),
        inert(system),
        String(x.n_summaries),
        String(x.n_failed),
        est(x.faithfulness),
        est(x.completeness),
        est(x.conciseness),
        s.conciseness_basis ?? '—',
      ]);
  }
  if (rows.length > 0) {
    parts.push('Per system:');
    parts.push(
      table(
        [
          'source',
          'system',
          'summaries',
          'failed calls',
          'faithfulness',
          'completeness',
          'conciseness',
          'conciseness basis',
        ],
        rows,
      ),
    );
  }
  parts.push(...renderComparison(block.comparison, block.comparison_sources, block.comparison_note, (m) => m));
  const judges = [...new Set([...Object.keys(block.claim_judges), ...Object.keys(block.keyfact_judges)])];
  if (judges.length > 0) {
    parts.push("Judges against people (share of items where the judge differs from the people's resolved label):");
    const error = (e: JudgeItemError | undefined) => (e === undefined ? '—' : est(e, undefined, e.n_summaries));
    parts.push(
      table(
        ['judge', 'claim error', 'key-fact alignment error'],
        judges.map((j) => [
          inert(j),
          error(block.claim_judges[j]?.claim_error),
          error(block.keyfact_judges[j]?.alignment_error),
        ]),
      ),
    );
  }
  const units = Object.entries(block.claim_units.judges);
  if (units.length > 0) {
    parts.push(
      "App. D, claim units: Pearson of the min and mean of a sentence's claim verdicts with its human label (sentences with ≥ 2 claims).",
    );
    parts.push(
      table(
        ['judge', 'sentences', 'Pearson min', 'Pearson mean'],
        units.map(([j, u]) => [inert(j), String(u.n_sentences), est(u.min.pearson), est(u.mean.pearson)]),
      ),
    );
    parts.push(
      `Review queue (human-faithful sentences where every judge flags a claim): ${block.claim_units.review_queue.length} of ${block.claim_units.human_faithful_sentences}.`,
    );
  }
  parts.push(...block.notes.map((n) => `- ${n}`));
  return parts;
}
