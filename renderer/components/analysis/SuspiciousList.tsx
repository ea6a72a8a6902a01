/**
 * Suspicious summaries (§6, App. C.2): labelled faithful while every judge flags one of their
 * sentences. The pool, the list (capped, by doc id) with the flagged sentences, and the review
 * table (Table 4). An entry opens read-only in a side panel: ids and flagged sentences only —
 * the text opens in the Review view (V), blind until each decision is stored.
 */
import { useKeyLayer } from '../../keys/hooks';
import type { DatasetAnalysis, SuspiciousEntry } from '../../../shared/analysis/types';
import { closeSuspicious, openSuspicious, useAnalysis } from '../../state/analysis';
import { openReviewAt } from '../../state/review';
import { showView } from '../../state/session';
import { agree, formatCount, percent, plural } from '../../format';
import { rateText } from './format';

const reviewWord = (label: SuspiciousEntry['review_labels'][number]) => label ?? 'not reviewed';

/** The summary in the Review view's suspicious queue of its dataset (with the analysis's cap, so it is listed). */
function reviewIt(dataset: string, summaryId: string, cap: number): void {
  closeSuspicious();
  openReviewAt(dataset, summaryId, cap);
  showView('review');
}

export function SuspiciousList({ dataset }: { dataset: DatasetAnalysis }) {
  const s = dataset.suspicious;
  const openEntry = useAnalysis((state) => state.openEntry);
  return (
    <div data-testid="suspicious">
      <p data-testid="suspicious-pool">
        Pool: <strong>{formatCount(s.pool)}</strong> suspicious of {plural(s.share_of_faithful.n, 'summary')} labelled
        faithful ({percent(s.share_of_faithful.value)}); {formatCount(s.after_fragment_filter)}{' '}
        {agree(s.after_fragment_filter, 'keeps', 'keep')} a flagged sentence of ≥ 5 words; listed{' '}
        <strong>{formatCount(s.listed.length)}</strong> (cap {formatCount(s.cap)}), sorted by doc id.
      </p>
      {s.listed.length > 0 && (
        <div className="analysis-scroll">
          <table className="data-table compact" data-testid="suspicious-table">
            <thead>
              <tr>
                <th scope="col">summary_id</th>
                <th scope="col">doc_id</th>
                <th scope="col">flagged sentences (0-based)</th>
                <th scope="col">review</th>
                <th scope="col">
                  <span className="visually-hidden">open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {s.listed.map((entry) => {
                const reviewed = entry.review_labels.filter((label) => label !== null).length;
                const isOpen = openEntry?.dataset === dataset.dataset && openEntry.summaryId === entry.summary_id;
                return (
                  <tr
                    key={entry.summary_id}
                    data-testid="suspicious-row"
                    data-summary={entry.summary_id}
                    className={isOpen ? 'is-selected' : undefined}
                  >
                    <td className="mono">{entry.summary_id}</td>
                    <td className="mono">{entry.doc_id}</td>
                    <td className="mono">{entry.flagged_sentences.join(', ')}</td>
                    <td>
                      {reviewed} of {entry.flagged_sentences.length}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        aria-expanded={isOpen}
                        onClick={() => (isOpen ? closeSuspicious() : openSuspicious(dataset.dataset, entry.summary_id))}
                        data-testid="suspicious-open"
                      >
                        {isOpen ? 'close' : 'open'}
                      </button>{' '}
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => reviewIt(dataset.dataset, entry.summary_id, s.cap)}
                        title="Open it in the Review view (V): document, summary and the flagged sentences to decide"
                        data-testid="suspicious-review"
                      >
                        review
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <ReviewTable dataset={dataset} />
    </div>
  );
}

function ReviewTable({ dataset }: { dataset: DatasetAnalysis }) {
  const r = dataset.suspicious.review;
  return (
    <div className="analysis-scroll">
      <table className="data-table compact" data-testid="review-table">
        <caption>
          Review of the flagged sentences in the listed summaries (Table 4 layout). U = unfaithful, F = faithful.
        </caption>
        <thead>
          <tr>
            <th scope="col">pool</th>
            <th scope="col">#summ. reviewed</th>
            <th scope="col">flagged</th>
            <th scope="col">U</th>
            <th scope="col">F</th>
            <th scope="col">Unclear</th>
            <th scope="col">not reviewed</th>
            <th scope="col">% U = U / (U + F)</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="num">{formatCount(r.pool)}</td>
            <td className="num">{formatCount(r.reviewed_summaries)}</td>
            <td className="num">{formatCount(r.flagged_sentences)}</td>
            <td className="num">{formatCount(r.unfaithful)}</td>
            <td className="num">{formatCount(r.faithful)}</td>
            <td className="num">{formatCount(r.unclear)}</td>
            <td className="num">{formatCount(r.not_reviewed)}</td>
            <td className="num">{rateText(r.pct_unfaithful, true)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** The open entry, read-only: ids, flagged sentences and their review labels. Esc closes it. */
export function SuspiciousPanel({ datasets }: { datasets: readonly DatasetAnalysis[] }) {
  const openEntry = useAnalysis((state) => state.openEntry);
  const dataset = openEntry ? datasets.find((d) => d.dataset === openEntry.dataset) : undefined;
  const entry = dataset?.suspicious.listed.find((e) => e.summary_id === openEntry?.summaryId);

  useKeyLayer('view', 'suspicious-panel', (press) => {
    if (!entry || press.key !== 'Escape') return 'pass';
    closeSuspicious();
    return 'handled';
  });

  if (!dataset || !entry) return null;
  return (
    <aside
      className="analysis-side-panel panel"
      aria-labelledby="suspicious-panel-title"
      data-testid="suspicious-panel"
    >
      <div className="panel-head">
        <h3 id="suspicious-panel-title">Suspicious summary</h3>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          onClick={() => reviewIt(dataset.dataset, entry.summary_id, dataset.suspicious.cap)}
          data-testid="suspicious-panel-review"
        >
          Review it
        </button>
        <button type="button" onClick={closeSuspicious} data-testid="suspicious-panel-close">
          Close <kbd>Esc</kbd>
        </button>
      </div>
      <dl className="analysis-facts single">
        <div>
          <dt>dataset</dt>
          <dd className="mono">{dataset.dataset}</dd>
        </div>
        <div>
          <dt>summary_id</dt>
          <dd className="mono" data-testid="suspicious-panel-summary">
            {entry.summary_id}
          </dd>
        </div>
        <div>
          <dt>doc_id</dt>
          <dd className="mono">{entry.doc_id}</dd>
        </div>
        <div>
          <dt>why</dt>
          <dd>Labelled faithful by the benchmark, while every judge flags at least one of its sentences unfaithful.</dd>
        </div>
      </dl>
      <table className="data-table compact">
        <caption>Sentences flagged by every judge (fragments of &lt; 5 words removed)</caption>
        <thead>
          <tr>
            <th scope="col">sentence (0-based)</th>
            <th scope="col">review label</th>
          </tr>
        </thead>
        <tbody>
          {entry.flagged_sentences.map((index, i) => (
            <tr key={index}>
              <td className="num">{index}</td>
              <td>{reviewWord(entry.review_labels[i] ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted" data-testid="suspicious-panel-note">
        Read-only: ids and flagged sentences only. “Review it” opens the summary with its document in the Review view,
        where judge and benchmark labels stay hidden until you decide each flagged sentence.
      </p>
    </aside>
  );
}
