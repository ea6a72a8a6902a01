/**
 * What came of the review: Table 4 per dataset (review.table: the suspicious queue of the chosen
 * judge panel and cap) with the error types of the unfaithful decisions, and the corrected global
 * labels (review.corrections: the conjunctive rule over adjudicated-or-resolved sentence labels)
 * beside the benchmark's, with the flips first. Audit views: loaded only on this tab.
 */
import { ERROR_TYPES, ERROR_TYPE_NAMES } from '../../../shared/domain';
import type { Correction, DatasetCorrections, ReviewTable } from '../../../shared/api';
import { dismissResultsError, loadResults, type ResultsState } from '../../state/review';
import { ErrorBanner } from '../ErrorBanner';
import { plural } from '../../format';
import { globalWord, pct, seconds } from './format';

const TYPE_COLUMNS = [...ERROR_TYPES, 'untyped'] as const;
const typeName = (type: (typeof TYPE_COLUMNS)[number]) => (type === 'untyped' ? 'no type' : ERROR_TYPE_NAMES[type]);

interface ReviewResultsProps {
  results: ResultsState;
  panelWords: string;
  fastMs: number;
}

export function ReviewResults({ results, panelWords, fastMs }: ReviewResultsProps) {
  return (
    <div className="review-results" data-testid="review-results">
      <ErrorBanner message={results.error} onDismiss={dismissResultsError} />
      <div className="row">
        <h2 className="pane-title">Table 4: review of the suspicious summaries</h2>
        <span className="muted">judges: {panelWords}</span>
        <button
          type="button"
          onClick={() => void loadResults()}
          disabled={results.status === 'loading'}
          data-testid="review-results-refresh"
        >
          {results.status === 'loading' ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      {results.status !== 'ready' && results.tables.length === 0 ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <Table4 tables={results.tables} fastMs={fastMs} />
          <ErrorTypes tables={results.tables} />
          <h2 className="pane-title review-results-title">Corrected global labels</h2>
          {results.corrections.map((c) => (
            <Corrections key={c.dataset} corrections={c} />
          ))}
        </>
      )}
    </div>
  );
}

function Table4({ tables, fastMs }: { tables: readonly ReviewTable[]; fastMs: number }) {
  return (
    <div className="analysis-scroll">
      <table className="data-table compact" data-testid="review-table-4">
        <caption>
          Per dataset: the pool (suspicious summaries before the fragment filter), the listed ones (cap), how many have
          a decided flagged sentence, and the decisions on the flagged sentences. U = unfaithful, F = faithful; %U = U /
          (U + F).
        </caption>
        <thead>
          <tr>
            <th scope="col">dataset</th>
            <th scope="col">judges</th>
            <th scope="col">pool</th>
            <th scope="col">listed (cap)</th>
            <th scope="col">#summ. reviewed</th>
            <th scope="col">flagged</th>
            <th scope="col">U</th>
            <th scope="col">F</th>
            <th scope="col">Unclear</th>
            <th scope="col">not reviewed</th>
            <th scope="col">%U</th>
            <th scope="col">decided in &lt; {seconds(fastMs)}</th>
          </tr>
        </thead>
        <tbody>
          {tables.map((t) => (
            <tr key={t.dataset} data-testid="review-table-row" data-dataset={t.dataset}>
              <th scope="row" className="mono">
                {t.dataset}
              </th>
              <td className="num">{t.judgeCount}</td>
              <td className="num" data-testid="review-table-pool">
                {t.pool}
              </td>
              <td className="num">
                {t.listed} ({t.cap})
              </td>
              <td className="num" data-testid="review-table-reviewed">
                {t.reviewed}
              </td>
              <td className="num">{t.flaggedSentences}</td>
              <td className="num" data-testid="review-table-u">
                {t.unfaithful}
              </td>
              <td className="num" data-testid="review-table-f">
                {t.faithful}
              </td>
              <td className="num">{t.unclear}</td>
              <td className="num">{t.notReviewed}</td>
              <td className="num" data-testid="review-table-pct">
                {pct(t.pctUnfaithful)} <span className="muted">(n = {t.pctUnfaithfulN})</span>
              </td>
              <td className="num">{t.fast}</td>
            </tr>
          ))}
          {tables.length === 0 && (
            <tr>
              <td colSpan={12} className="muted">
                No dataset in this project.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function ErrorTypes({ tables }: { tables: readonly ReviewTable[] }) {
  return (
    <div className="analysis-scroll">
      <table className="data-table compact" data-testid="review-error-types">
        <caption>Error types of the unfaithful decisions (U)</caption>
        <thead>
          <tr>
            <th scope="col">dataset</th>
            {TYPE_COLUMNS.map((type) => (
              <th key={type} scope="col">
                {typeName(type)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tables.map((t) => (
            <tr key={t.dataset} data-dataset={t.dataset}>
              <th scope="row" className="mono">
                {t.dataset}
              </th>
              {TYPE_COLUMNS.map((type) => (
                <td key={type} className="num" data-testid={`review-error-type-${type}`}>
                  {t.errorTypes[type] ?? 0}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Corrections({ corrections }: { corrections: DatasetCorrections }) {
  const { dataset, rule, summaries, flips } = corrections;
  return (
    <section className="review-corrections" data-testid="review-corrections" data-dataset={dataset}>
      <h3>
        <span className="mono">{dataset}</span>: {plural(flips.length, 'flip')} among{' '}
        {plural(summaries.length, 'summary')} with a human label
      </h3>
      <p className="muted review-rule">{rule}</p>
      {flips.length > 0 && (
        <CorrectionTable
          rows={flips}
          testId="review-flips"
          caption="Flips: the corrected label differs from the benchmark's"
        />
      )}
      {summaries.length > 0 && (
        <details className="review-all-corrections">
          <summary>Every summary with a human label ({summaries.length})</summary>
          <CorrectionTable
            rows={summaries}
            testId="review-corrections-all"
            caption="Corrected global label beside the benchmark's"
          />
        </details>
      )}
    </section>
  );
}

const BASIS: Record<Correction['basis'], string> = {
  unfaithful_sentence: 'an unfaithful sentence',
  all_sentences: 'every sentence faithful or unclear',
  undetermined: 'not determined',
};

function CorrectionTable({ rows, testId, caption }: { rows: readonly Correction[]; testId: string; caption: string }) {
  return (
    <div className="analysis-scroll">
      <table className="data-table compact" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">summary_id</th>
            <th scope="col">doc_id</th>
            <th scope="col">benchmark</th>
            <th scope="col">corrected</th>
            <th scope="col">basis</th>
            <th scope="col">F / U / Unclear / unknown</th>
            <th scope="col">adjudicated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr
              key={c.key}
              data-testid="correction-row"
              data-summary={c.summaryId}
              data-benchmark={c.benchmarkLabel ?? ''}
              data-corrected={c.correctedLabel ?? ''}
              className={c.flipped ? 'is-flip' : undefined}
            >
              <td className="mono">{c.summaryId}</td>
              <td className="mono">{c.docId}</td>
              <td>{globalWord(c.benchmarkLabel)}</td>
              <td>
                {globalWord(c.correctedLabel)}
                {c.flipped && <span className="tag tag-error"> flip</span>}
              </td>
              <td>{BASIS[c.basis]}</td>
              <td className="num">
                {c.faithful} / {c.unfaithful} / {c.unclear} / {c.unknown}
              </td>
              <td className="num">{c.adjudicated}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
