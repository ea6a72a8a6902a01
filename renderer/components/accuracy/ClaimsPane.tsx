/**
 * Claim mode of Annotate: the summary in context, the claim being judged, then every sentence
 * with its claims (current version) nested under it, each with this annotator's label. Text is
 * rendered as text (React children), never as HTML.
 */
import type { ClaimAnnotation } from '../../../shared/contract/claims';
import { CLAIM_ERROR_TYPE_IN_TAXONOMY, type ClaimErrorType } from '../../../shared/accuracy/domain';
import { ERROR_TYPE_NAMES } from '../../../shared/domain';
import { claimItem, claimNumber, claimRows, CLAIM_LABEL_NAME } from '../../state/claimsAndKeyFacts';
import { SummaryText } from '../annotate/SummaryText';
import { EmptyItems } from './EmptyItems';
import { useScrollCurrentIntoView } from '../useScrollCurrentIntoView';
import { ItemBadge } from './ItemBadge';
import type { ItemPaneProps } from './itemPane';
import { NoteTag } from './NoteTag';
import { SavingStatus } from './SavingStatus';
import { agree, plural } from '../../format';
import { ProposalPending } from '../annotate/ProposalPending';

export function claimErrorName(type: ClaimErrorType): string {
  return ERROR_TYPE_NAMES[CLAIM_ERROR_TYPE_IN_TAXONOMY[type]];
}

interface ClaimsPaneProps extends ItemPaneProps {
  claims: ClaimAnnotation | null;
}

export function ClaimsPane({ summary, claims, position, saving, failed, kept, lead, onSelect }: ClaimsPaneProps) {
  const list = useScrollCurrentIntoView<HTMLOListElement>([position, claims]);

  if (!claims || claims.key !== summary.key)
    return (
      <p className="muted" data-testid="claims-loading">
        Loading the claims…
      </p>
    );
  const rows = claimRows(claims);
  const current = rows[position];
  if (claims.version === null || rows.length === 0) {
    return (
      <>
        <SummaryText summary={summary.summary} units={summary.units} currentId={null} onSelect={() => undefined} />
        <EmptyItems what="claims" dataset={summary.dataset} lead={lead} />
      </>
    );
  }
  const labeled = rows.filter((r) => r.claim.state.label !== null).length;
  let flat = 0;
  return (
    <div className="claims-pane" data-testid="claims-pane" data-version={claims.version}>
      <p className="muted claims-version" data-testid="claims-version">
        Claims version {claims.version} · you labeled {labeled} of {rows.length} on this version
        {saving.size > 0 && <SavingStatus />}
      </p>
      {kept && kept.what === 'claims' && kept.key === claims.key && kept.proposal !== null && (
        <ProposalPending what="claims" proposal={kept.proposal} version={claims.version} testId="claims-proposed" />
      )}
      {kept && kept.what === 'claims' && kept.key === claims.key && kept.proposal === null && (
        <p className="notice" role="status" data-testid="claims-kept">
          Version {kept.toVersion} made.{' '}
          {kept.labeled > 0
            ? `Your ${plural(kept.labeled, 'label')} ${agree(kept.labeled, 'stays', 'stay')} on version ${kept.fromVersion} (the claims ${agree(kept.labeled, 'it was', 'they were')} given on); `
            : ''}
          version {kept.toVersion} starts unlabeled.
        </p>
      )}
      <SummaryText
        summary={summary.summary}
        units={summary.units}
        currentId={current?.sentence.unitId ?? null}
        onSelect={() => undefined}
      />
      {current && (
        <section
          className={`current-unit label-${current.claim.state.label ?? 'none'}`}
          data-testid="claim-current"
          data-claim-id={current.claim.id}
          data-label={current.claim.state.label ?? ''}
        >
          <header className="current-unit-head">
            <span data-testid="claim-current-number">
              Claim {claimNumber(current.sentence.index, current.number)} of sentence {current.sentence.index + 1}
            </span>
            <ItemBadge label={current.claim.state.label} />
            <span className="muted">
              {current.claim.state.label ? CLAIM_LABEL_NAME[current.claim.state.label] : 'not labeled'}
            </span>
            {current.claim.state.errorType && (
              <span className="tag tag-error">{claimErrorName(current.claim.state.errorType)}</span>
            )}
            {saving.has(claimItem(current.claim.id)) && <span className="tag tag-saving">saving…</span>}
            {failed.has(claimItem(current.claim.id)) && <span className="tag tag-failed">not saved</span>}
          </header>
          <p className="current-unit-text">{current.claim.text}</p>
          <p className="muted small">Sentence: {current.sentence.text}</p>
          {current.claim.state.note && (
            <p className="current-unit-note" data-testid="claim-current-note">
              Note: {current.claim.state.note}
            </p>
          )}
        </section>
      )}
      <ol className="claim-sentences" ref={list} aria-label="Sentences and their claims">
        {claims.sentences.map((sentence) => (
          <li key={sentence.unitId} className="claim-sentence" data-testid={`claim-sentence-${sentence.index}`}>
            <p className="claim-sentence-text">
              <span className="unit-index">{sentence.index + 1}</span> {sentence.text}
            </p>
            {sentence.claims.length === 0 ? (
              <p className="muted small">no claim</p>
            ) : (
              <ol className="claim-list">
                {sentence.claims.map((claim, under) => {
                  const at = flat++;
                  // Numbered under its sentence ("2.1"), as everywhere: the set's own order is not shown.
                  const number = under + 1;
                  const item = claimItem(claim.id);
                  const write = saving.has(item) ? 'saving' : failed.has(item) ? 'failed' : undefined;
                  const isCurrent = at === position;
                  return (
                    <li
                      key={claim.id}
                      className={`unit-row claim-row label-${claim.state.label ?? 'none'}${isCurrent ? ' is-current' : ''}`}
                      data-testid={`claim-${sentence.index}-${under}`}
                      data-label={claim.state.label ?? ''}
                      data-write={write}
                      aria-current={isCurrent ? 'true' : undefined}
                      onClick={() => onSelect(at)}
                    >
                      <span className="unit-index" data-testid={`claim-number-${claim.id}`}>
                        {claimNumber(sentence.index, number)}
                      </span>
                      <ItemBadge label={claim.state.label} />
                      <span className="unit-text">{claim.text}</span>
                      <span className="unit-tags">
                        {claim.state.errorType && (
                          <span className="tag tag-error" data-testid={`claim-error-${sentence.index}-${under}`}>
                            {claimErrorName(claim.state.errorType)}
                          </span>
                        )}
                        {claim.state.note && (
                          <NoteTag note={claim.state.note} testId={`claim-note-${sentence.index}-${under}`} />
                        )}
                        {write === 'saving' && <span className="tag tag-saving">saving…</span>}
                        {write === 'failed' && (
                          <span className="tag tag-failed" data-testid={`claim-not-saved-${sentence.index}-${under}`}>
                            not saved
                          </span>
                        )}
                      </span>
                    </li>
                  );
                })}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
