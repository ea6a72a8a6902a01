/**
 * Key-fact mode of Annotate: the document's key facts (current version) beside the summary's
 * numbered sentences, each fact Covered / Not covered by this summary with the sentences or
 * claims that convey it (E after F picks them).
 */
import type { KeyFactAnnotation } from '../../../shared/contract/keyfacts';
import { factItem, FACT_LABEL_NAME } from '../../state/claimsAndKeyFacts';
import { EmptyItems } from './EmptyItems';
import { useScrollCurrentIntoView } from '../useScrollCurrentIntoView';
import { ItemBadge } from './ItemBadge';
import type { ItemPaneProps } from './itemPane';
import { NoteTag } from './NoteTag';
import { SavingStatus } from './SavingStatus';
import { conveyedText, conveyLines } from './lines';
import { agree, plural } from '../../format';
import { ProposalPending } from '../annotate/ProposalPending';

interface KeyFactsPaneProps extends ItemPaneProps {
  facts: KeyFactAnnotation | null;
}

export function KeyFactsPane({ summary, facts, position, saving, failed, kept, lead, onSelect }: KeyFactsPaneProps) {
  const list = useScrollCurrentIntoView<HTMLOListElement>([position, facts]);

  if (!facts || facts.key !== summary.key)
    return (
      <p className="muted" data-testid="keyfacts-loading">
        Loading the key facts…
      </p>
    );
  const lines = conveyLines(facts);
  const labeled = facts.facts.filter((f) => f.state.label !== null).length;
  return (
    <div className="keyfacts-pane" data-testid="keyfacts-pane" data-version={facts.version ?? ''}>
      <div className="keyfacts-summary">
        <h3 className="pane-subtitle">Summary lines</h3>
        <ol className="convey-lines" aria-label="Summary sentences and claims">
          {lines.map((line) => (
            <li key={`${line.kind}${line.id}`} className={`convey-line convey-${line.kind}`}>
              <span className="unit-index">{line.label}</span> {line.text}
            </li>
          ))}
        </ol>
      </div>
      <div className="keyfacts-list">
        {facts.version === null || facts.facts.length === 0 ? (
          <EmptyItems what="keyfacts" dataset={summary.dataset} lead={lead} />
        ) : (
          <>
            <p className="muted" data-testid="keyfacts-version">
              Key facts of <code>{facts.docId}</code>, version {facts.version} · you labeled {labeled} of{' '}
              {facts.facts.length} for this summary
              {saving.size > 0 && <SavingStatus />}
            </p>
            {kept && kept.what === 'keyfacts' && kept.key === facts.key && kept.proposal !== null && (
              <ProposalPending
                what="key facts"
                proposal={kept.proposal}
                version={facts.version}
                testId="keyfacts-proposed"
              />
            )}
            {kept && kept.what === 'keyfacts' && kept.key === facts.key && kept.proposal === null && (
              <p className="notice" role="status" data-testid="keyfacts-kept">
                Version {kept.toVersion} made.{' '}
                {kept.labeled > 0
                  ? `Your ${plural(kept.labeled, 'label')} ${agree(kept.labeled, 'stays', 'stay')} on version ${kept.fromVersion}; `
                  : ''}
                version {kept.toVersion} starts unlabeled.
              </p>
            )}
            <ol className="fact-list" ref={list} aria-label="Key facts">
              {facts.facts.map((fact, at) => {
                const item = factItem(facts.key, fact.id);
                const write = saving.has(item) ? 'saving' : failed.has(item) ? 'failed' : undefined;
                const conveyed = conveyedText(facts, fact.state.conveyedBy);
                const isCurrent = at === position;
                return (
                  <li
                    key={fact.id}
                    className={`unit-row fact-row label-${fact.state.label ?? 'none'}${isCurrent ? ' is-current' : ''}`}
                    data-testid={`fact-${fact.index}`}
                    data-label={fact.state.label ?? ''}
                    data-write={write}
                    aria-current={isCurrent ? 'true' : undefined}
                    onClick={() => onSelect(at)}
                  >
                    <span className="unit-index">{fact.index + 1}</span>
                    <ItemBadge label={fact.state.label} />
                    <span className="unit-text">{fact.text}</span>
                    <span className="unit-tags">
                      {fact.state.label && <span className="muted small">{FACT_LABEL_NAME[fact.state.label]}</span>}
                      {conveyed && (
                        <span className="tag tag-conveyed" data-testid={`fact-conveyed-${fact.index}`}>
                          by {conveyed}
                        </span>
                      )}
                      {fact.state.note && <NoteTag note={fact.state.note} testId={`fact-note-${fact.index}`} />}
                      {write === 'saving' && <span className="tag tag-saving">saving…</span>}
                      {write === 'failed' && (
                        <span className="tag tag-failed" data-testid={`fact-not-saved-${fact.index}`}>
                          not saved
                        </span>
                      )}
                    </span>
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </div>
    </div>
  );
}
