/**
 * What a dataset's figures rest on: summaries and sentences analysed, whose labels are the human
 * reference (set, rule, annotators and labels, what was left out), the human sample, p̂ with its
 * interval, and ε₀ with its status (a root, unconditional, or undefined and why).
 */
import type { DatasetAnalysis, HumanReferenceReport } from '../../../shared/analysis/types';
import { formatCount, formatEstimate, nEquals, num, plural } from '../../format';
import { HUMAN_LABEL_RULE_TEXT, REFERENCE_TEXT } from './format';

export function DatasetFacts({ dataset }: { dataset: DatasetAnalysis }) {
  const human = dataset.human;
  const p = dataset.p_hat_estimate;
  return (
    <dl className="analysis-facts" data-testid="dataset-facts">
      <div>
        <dt>Summaries</dt>
        <dd data-testid="facts-summaries">
          {formatCount(dataset.n_summaries)} analysed of {formatCount(dataset.n_summaries_total)}
          {dataset.n_single_sentence_left_out > 0 && (
            <> ({formatCount(dataset.n_single_sentence_left_out)} with one sentence left out)</>
          )}{' '}
          · {plural(dataset.n_sentences, 'sentence')}
          {dataset.n_without_global_label > 0 && (
            <> · {formatCount(dataset.n_without_global_label)} without a global label</>
          )}
        </dd>
      </div>
      <div>
        <dt>Human reference</dt>
        <dd data-testid="facts-reference" data-set={dataset.reference.set} data-rule={dataset.reference.rule}>
          <ReferenceFacts reference={dataset.reference} />
        </dd>
      </div>
      <div>
        <dt>Human sample (≥ 2 sentences)</dt>
        <dd data-testid="facts-human">
          {plural(human.n_annotated_summaries, 'annotated summary')}, {plural(human.n_units, 'sentence')}:{' '}
          {formatCount(human.n_usable)} usable ({formatCount(human.n_faithful)} faithful,{' '}
          {formatCount(human.n_unfaithful)} unfaithful), {formatCount(human.n_unclear)} unclear
          {human.n_unresolved > 0 && <>, {plural(human.n_unresolved, 'unresolved disagreement')} (left out)</>}
          {human.n_unlabeled > 0 && <>, {formatCount(human.n_unlabeled)} unlabeled</>}
        </dd>
      </div>
      <div>
        <dt>p̂ (share faithful)</dt>
        <dd data-testid="facts-p-hat">
          {formatEstimate(p, { n: 'never', units: null })}{' '}
          <span className="muted">
            ({nEquals(p.n, 'sentence')}, {plural(p.n_summaries, 'summary')})
          </span>
        </dd>
      </div>
      <div>
        <dt>Threshold ε₀</dt>
        <dd data-testid="facts-epsilon0" data-status={dataset.epsilon0_status}>
          <Epsilon0 dataset={dataset} />
        </dd>
      </div>
    </dl>
  );
}

export function ReferenceFacts({ reference }: { reference: HumanReferenceReport }) {
  // The settings' words (format.ts), so the header and the settings panel name a choice alike.
  const rule = `adjudicated, else ${HUMAN_LABEL_RULE_TEXT[reference.rule]}`;
  const revealed = reference.include_revealed ? reference.n_labels_revealed : reference.n_labels_revealed_excluded;
  return (
    <>
      {REFERENCE_TEXT[reference.set]}, rule {rule}: {plural(reference.n_annotators, 'annotator')},{' '}
      {plural(reference.n_labels, 'label')}
      {reference.annotators.length > 0 && (
        <span className="muted">
          {' '}
          (
          {reference.annotators
            .map((a) => `${a.name}${a.kind ? ` · ${a.kind}` : ''}: ${formatCount(a.n_labels)}`)
            .join('; ')}
          )
        </span>
      )}
      {reference.n_labels_outside_reference > 0 && (
        <>
          {' '}
          · {plural(reference.n_labels_outside_reference, 'label')} of{' '}
          {plural(reference.n_annotators_outside_reference, 'annotator')} outside the reference left out
        </>
      )}
      {revealed > 0 && (
        <>
          {' '}
          · {plural(revealed, 'label')} given after a reveal {reference.include_revealed ? 'included' : 'left out'}
        </>
      )}
      {reference.rule === 'majority' && (
        <>
          {' '}
          · {plural(reference.n_units_majority, 'sentence')} by majority, {formatCount(reference.n_units_tied)} tied
          (left out)
        </>
      )}
    </>
  );
}

export function Epsilon0({ dataset }: { dataset: DatasetAnalysis }) {
  const basis = (
    <span className="muted">
      {' '}
      (at p̂ = {num(dataset.p_hat)}; lengths of {plural(dataset.epsilon0_n_summaries, 'summary')})
    </span>
  );
  switch (dataset.epsilon0_status) {
    case 'root':
      return (
        <>
          <strong>ε₀ = {num(dataset.epsilon0)}</strong> <span className="tag">root</span> — the smallest ε in (0, ½)
          where ρ(Y, A) = ρ(Y, B){basis}
        </>
      );
    case 'unconditional':
      return (
        <>
          <strong>unconditional</strong> <span className="tag">no root</span> — the diagnostic holds for every ε̂ &lt; ½
          {basis}
        </>
      );
    default:
      return (
        <>
          <strong>undefined</strong> — {dataset.epsilon0_reason ?? 'p̂ is missing, 0 or 1'}
        </>
      );
  }
}
