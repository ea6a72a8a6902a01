/**
 * Scaffold mode of Annotate: the document's scaffold (current version) beside the summary's
 * numbered sentences. Facts carry their tier (main / supporting), questions their expected
 * answer, attributes their entity; each shows this annotator's own alignment for this summary,
 * for a kept fact the sentences that convey it (Fact Focus, E), and their note (/ or M; the current
 * item shows its text).
 */
import type { AnnotationSummary } from '../../../shared/api';
import type { ScaffoldAnnotation, ScaffoldAnnotationItem } from '../../../shared/contract/scaffold';
import { ALIGNMENT_NAME, type KeptAlignments } from '../../state/scaffold';
import { NoteTag } from '../accuracy/NoteTag';
import { SavingStatus } from '../accuracy/SavingStatus';
import { useScrollCurrentIntoView } from '../useScrollCurrentIntoView';
import { agree, plural } from '../../format';
import { ProposalPending } from '../annotate/ProposalPending';

interface ScaffoldPaneProps {
  summary: AnnotationSummary;
  scaffold: ScaffoldAnnotation | null;
  position: number;
  saving: ReadonlyMap<number, number>;
  failed: ReadonlySet<number>;
  kept: KeptAlignments | null;
  lead: boolean;
  onSelect: (position: number) => void;
}

const COLOUR: Record<string, string> = {
  preserved: 'faithful',
  answered: 'faithful',
  missing: 'unfaithful',
  unanswered: 'unfaithful',
  partial: 'unclear',
  misrepresented: 'misrepresented',
};
const LETTER: Record<string, string> = {
  preserved: 'P',
  answered: 'A',
  missing: 'M',
  unanswered: 'N',
  partial: '½',
  misrepresented: 'R',
};
const GROUP_TITLE: Record<ScaffoldAnnotationItem['kind'], string> = {
  fact: 'Facts',
  question: 'Key questions',
  attribute: 'Entity attributes',
};

export function ScaffoldPane({ summary, scaffold, position, saving, failed, kept, lead, onSelect }: ScaffoldPaneProps) {
  const list = useScrollCurrentIntoView<HTMLDivElement>([position, scaffold]);

  if (!scaffold || scaffold.key !== summary.key)
    return (
      <p className="muted" data-testid="scaffold-loading">
        Loading the scaffold…
      </p>
    );
  const aligned = scaffold.items.filter((i) => i.state.value !== null).length;
  return (
    <div className="keyfacts-pane scaffold-pane" data-testid="scaffold-pane" data-version={scaffold.version ?? ''}>
      <div className="keyfacts-summary">
        <h3 className="pane-subtitle">Summary sentences</h3>
        <ol className="convey-lines" aria-label="Summary sentences">
          {scaffold.sentences.map((s) => (
            <li key={s.unitId} className="convey-line convey-sentence">
              <span className="unit-index">{s.index + 1}</span> {s.text}
            </li>
          ))}
        </ol>
      </div>
      <div className="keyfacts-list" ref={list}>
        {scaffold.version === null || scaffold.items.length === 0 ? (
          <div className="accuracy-empty" data-testid="scaffold-empty">
            <p className="empty-title">No scaffold for this document yet — extract or import one</p>
            <p className="muted">
              {lead
                ? 'Import it in Project (--as scaffold) or run the scaffold extraction task.'
                : 'Ask the project lead to extract or import this document’s scaffold.'}
            </p>
          </div>
        ) : (
          <>
            <p className="muted" data-testid="scaffold-version">
              Scaffold of <code>{scaffold.docId}</code>, version {scaffold.version} · you aligned {aligned} of{' '}
              {scaffold.items.length} items for this summary
              {saving.size > 0 && <SavingStatus />}
            </p>
            {kept && kept.key === scaffold.key && kept.proposal !== null && (
              <ProposalPending
                what="scaffold"
                proposal={kept.proposal}
                version={scaffold.version}
                testId="scaffold-proposed"
              />
            )}
            {kept && kept.key === scaffold.key && kept.proposal === null && (
              <p className="notice" role="status" data-testid="scaffold-kept">
                Version {kept.toVersion} made.{' '}
                {kept.aligned > 0
                  ? `Your ${plural(kept.aligned, 'alignment')} ${agree(kept.aligned, 'stays', 'stay')} on version ${kept.fromVersion}; `
                  : ''}
                version {kept.toVersion} starts unaligned.
              </p>
            )}
            {(['fact', 'question', 'attribute'] as const).map((kind) => {
              const rows = scaffold.items.map((item, at) => ({ item, at })).filter((r) => r.item.kind === kind);
              if (rows.length === 0) return null;
              return (
                <section key={kind} aria-label={GROUP_TITLE[kind]}>
                  <h4 className="pane-subtitle">{GROUP_TITLE[kind]}</h4>
                  <ol className="fact-list">
                    {rows.map(({ item, at }) => {
                      const write = saving.has(item.id) ? 'saving' : failed.has(item.id) ? 'failed' : undefined;
                      const isCurrent = at === position;
                      const value = item.state.value;
                      const note = item.state.note ?? null;
                      return (
                        <li
                          key={item.id}
                          className={`unit-row fact-row label-${value ?? 'none'}${isCurrent ? ' is-current' : ''}`}
                          data-testid={`scaffold-item-${item.itemKey}`}
                          data-value={value ?? ''}
                          data-write={write}
                          aria-current={isCurrent ? 'true' : undefined}
                          onClick={() => onSelect(at)}
                        >
                          <span
                            className={`badge badge-${value ? COLOUR[value] : 'none'}`}
                            title={value ? ALIGNMENT_NAME[value] : 'Not aligned'}
                          >
                            {value ? LETTER[value] : '·'}
                          </span>
                          <span className="unit-text">
                            {/* The tier leads the text, inline: its own grid column squeezed it under the badge. */}
                            {item.tier && (
                              <span
                                className={`tag tag-tier tier-${item.tier}`}
                                data-testid={`scaffold-tier-${item.itemKey}`}
                              >
                                {item.tier}
                              </span>
                            )}
                            {item.entity && <strong>{item.entity}: </strong>}
                            {item.text}
                            {item.kind === 'question' && item.answer ? (
                              <span className="muted small"> — expected: {item.answer}</span>
                            ) : null}
                            {isCurrent && note !== null && (
                              <span className="current-unit-note" data-testid="scaffold-current-note">
                                Note: {note}
                              </span>
                            )}
                          </span>
                          <span className="unit-tags">
                            {value && <span className="muted small">{ALIGNMENT_NAME[value]}</span>}
                            {item.state.sentences.length > 0 && (
                              <span className="tag tag-conveyed" data-testid={`scaffold-sentences-${item.itemKey}`}>
                                by {item.state.sentences.map((s) => s + 1).join(', ')}
                              </span>
                            )}
                            {note !== null && <NoteTag note={note} testId={`scaffold-note-${item.itemKey}`} />}
                            {write === 'saving' && <span className="tag tag-saving">saving…</span>}
                            {write === 'failed' && (
                              <span className="tag tag-failed" data-testid={`scaffold-not-saved-${item.itemKey}`}>
                                not saved
                              </span>
                            )}
                          </span>
                        </li>
                      );
                    })}
                  </ol>
                </section>
              );
            })}
          </>
        )}
      </div>
    </div>
  );
}
