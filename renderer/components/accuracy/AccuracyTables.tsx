/**
 * The Summarization Accuracy block of one dataset (shared/accuracy/report.ts): per source (people,
 * each judge) faithfulness, completeness and conciseness overall and per system, each with its
 * 95% summary-bootstrap interval and n (or "n = k, too few for an interval"); "—" where the source
 * has no such labels; conciseness once, on the source's basis (claims or sentences); then the
 * comparison of systems by one source with its picker (SystemComparisonTable), how far each judge
 * is from the people, on claims and on key facts, and the App. D correlations of claim units
 * (ClaimUnitsTable). Each table has its source's name as a heading
 * above it; every column says which unit it counts.
 */
import type { AccuracyBlock, JudgeItemError, SourceAccuracy, SystemAccuracy } from '../../../shared/accuracy/report';
import { formatCount, plural } from '../../format';
import { EstimateCell } from '../analysis/EstimateCell';
import { SystemComparisonTable } from '../analysis/SystemComparison';
import { TitledTable } from '../analysis/TitledTable';
import { ClaimUnitsTable } from './ClaimUnitsTable';

/** A source without such labels (a judge with claim verdicts only has no completeness). */
const NO_LABELS = { text: '—', title: 'This source has no such labels' };

function sourceName(source: string): string {
  return source === 'human' ? 'People (human labels)' : source;
}

function concisenessBasis(source: SourceAccuracy): string {
  if (source.conciseness_basis === 'sentences') return 'sentences conveying a key fact / sentences (FineSurE)';
  if (source.conciseness_basis === 'claims') return 'claims conveying a key fact / claims';
  return 'no alignment';
}

type Row = {
  name: string;
  figures: Pick<SystemAccuracy, 'faithfulness' | 'completeness' | 'conciseness' | 'n_summaries' | 'n_failed'>;
};

function SourceTable({ name, source }: { name: string; source: SourceAccuracy }) {
  const rows: Row[] = [
    { name: 'All systems', figures: source },
    ...Object.entries(source.by_system)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([system, figures]) => ({ name: system, figures })),
  ];
  return (
    <TitledTable
      title={sourceName(name)}
      about={
        <>
          {plural(source.n_summaries, 'summary')}
          {source.n_failed > 0 && <> ({plural(source.n_failed, 'failed system call')}, 0.0 on all three)</>}.
          Per-summary scores averaged over summaries, 95% bootstrap intervals resampling summaries. Conciseness here
          counts {concisenessBasis(source)}.
        </>
      }
      testId="accuracy-source"
      data={{ 'data-source': name }}
      tableClassName="accuracy-table"
    >
      <thead>
        <tr>
          <th scope="col">System</th>
          <th scope="col">
            Faithfulness <span className="muted small">(supported claims / claims)</span>
          </th>
          <th scope="col">
            Completeness <span className="muted small">(covered key facts / key facts)</span>
          </th>
          <th scope="col" data-basis={source.conciseness_basis ?? ''}>
            Conciseness <span className="muted small">({source.conciseness_basis ?? 'no alignment'})</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name} data-testid="accuracy-row" data-system={row.name}>
            <th scope="row">
              {row.name}
              <div className="muted small">
                {plural(row.figures.n_summaries, 'summary')}
                {row.figures.n_failed > 0 && `, ${formatCount(row.figures.n_failed)} failed`}
              </div>
            </th>
            <EstimateCell
              estimate={row.figures.faithfulness}
              unit="summary"
              placeholder={NO_LABELS}
              testId="accuracy-faithfulness"
            />
            <EstimateCell
              estimate={row.figures.completeness}
              unit="summary"
              placeholder={NO_LABELS}
              testId="accuracy-completeness"
            />
            <EstimateCell
              estimate={row.figures.conciseness}
              unit="summary"
              placeholder={NO_LABELS}
              testId="accuracy-conciseness"
            />
          </tr>
        ))}
      </tbody>
    </TitledTable>
  );
}

function ErrorCell({ error, unit, testId }: { error: JudgeItemError | undefined; unit: string; testId: string }) {
  return (
    <EstimateCell
      estimate={error ?? null}
      unit={unit}
      units={error?.n_summaries ?? null}
      placeholder={NO_LABELS}
      testId={testId}
    >
      {error && <> in {plural(error.n_summaries, 'summary')}</>}
    </EstimateCell>
  );
}

export function AccuracySection({ accuracy }: { accuracy: AccuracyBlock }) {
  const sources = Object.keys(accuracy.sources).sort((a, b) =>
    a === 'human' ? -1 : b === 'human' ? 1 : a.localeCompare(b),
  );
  const judges = [...new Set([...Object.keys(accuracy.claim_judges), ...Object.keys(accuracy.keyfact_judges)])].sort();
  return (
    <div className="accuracy-section" data-testid="accuracy-section">
      {sources.map((name) => (
        <SourceTable key={name} name={name} source={accuracy.sources[name]!} />
      ))}
      <SystemComparisonTable
        title="Comparison of systems"
        comparison={accuracy.comparison}
        candidates={accuracy.comparison_sources}
        note={accuracy.comparison_note}
        label={(m) => m.charAt(0).toUpperCase() + m.slice(1)}
        testId="accuracy-comparison"
      />
      {judges.length > 0 && (
        <TitledTable
          title="Judges vs people"
          about={
            <>
              The share of items where the judge’s label differs from the people’s resolved label (claims: supported /
              unsupported; key facts: covered / not covered, per summary). 95% bootstrap intervals resampling summaries.
            </>
          }
          tableClassName="accuracy-judges"
          tableTestId="accuracy-judges"
        >
          <thead>
            <tr>
              <th scope="col">Judge</th>
              <th scope="col">Claim error (claims)</th>
              <th scope="col">Alignment error (key facts × summary)</th>
            </tr>
          </thead>
          <tbody>
            {judges.map((judge) => (
              <tr key={judge} data-testid="accuracy-judge-row" data-judge={judge}>
                <th scope="row" className="judge-name-cell">
                  {judge}
                </th>
                <ErrorCell
                  error={accuracy.claim_judges[judge]?.claim_error}
                  unit="claim"
                  testId="accuracy-claim-error"
                />
                <ErrorCell
                  error={accuracy.keyfact_judges[judge]?.alignment_error}
                  unit="key fact"
                  testId="accuracy-alignment-error"
                />
              </tr>
            ))}
          </tbody>
        </TitledTable>
      )}
      {(Object.keys(accuracy.claim_units.judges).length > 0 || accuracy.claim_units.human_faithful_sentences > 0) && (
        <ClaimUnitsTable units={accuracy.claim_units} />
      )}
      {accuracy.claim_units.review_queue.length > 0 && (
        <p className="muted" data-testid="accuracy-claim-review">
          {plural(accuracy.claim_units.review_queue.length, 'sentence')} labeled faithful by people where every judge
          flags a claim (of {plural(accuracy.claim_units.human_faithful_sentences, 'human-faithful sentence')} with
          every verdict): worth a second look.
        </p>
      )}
      {accuracy.notes.length > 0 && (
        <ul className="notes" data-testid="accuracy-notes">
          {accuracy.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
