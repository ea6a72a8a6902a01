/**
 * W in scaffold mode: review and edit the document's scaffold before it is used — add, drop,
 * retier or reword facts, questions and entity attributes. Saving makes a new version
 * (scaffold.edit); alignments given on the old version stay there. An item keeps its id (within
 * its kind) when edited or retiered, so the new version names the item it came from. A dialog
 * (EditorDialog.tsx): the focus stays inside, an added item's field takes it, Ctrl+Enter saves,
 * Esc asks before discarding edits. Each row is one line wide enough for real text.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Layer } from '../../keys/dispatcher';
import { useEditorDialog } from '../EditorDialog';
import { plural } from '../../format';
import type { ScaffoldAnnotation, ScaffoldEditInput } from '../../../shared/contract/scaffold';
import { scaffoldContentProblems } from '../../../shared/scaffold/content';
import type { ScaffoldContent, Tier } from '../../../shared/scaffold/domain';

type Kind = 'fact' | 'question' | 'attribute';
interface Row {
  kind: Kind;
  id: string;
  text: string;
  tier: Tier;
  answer: string;
  entity: string;
}

interface ScaffoldEditorProps {
  /** The editor's layer, opened by W. */
  layer: Layer;
  scaffold: ScaffoldAnnotation;
  onSave: (content: Pick<ScaffoldEditInput, 'facts' | 'questions' | 'entities'>, note: string) => void;
  onCancel: () => void;
  /** The lead's version history (an annotator link may not read it). */
  history?: ReactNode;
}

const PREFIX: Record<Kind, string> = { fact: 'f', question: 'q', attribute: 'a' };

function freshId(rows: readonly Row[], kind: Kind): string {
  const taken = new Set(rows.filter((r) => r.kind === kind).map((r) => r.id));
  let n = taken.size + 1;
  while (taken.has(`${PREFIX[kind]}${n}`) || taken.has(`new-${PREFIX[kind]}${n}`)) n += 1;
  return `new-${PREFIX[kind]}${n}`;
}

/** An item's text is one line that wraps as it grows: Enter adds no line break (Ctrl+Enter saves). */
function noLineBreak(event: KeyboardEvent<HTMLTextAreaElement>): void {
  if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) event.preventDefault();
}

/** A row's identity in the list (ids are unique within a kind). */
const rowKey = (row: Pick<Row, 'kind' | 'id'>): string => `${row.kind}:${row.id}`;

export function toContent(rows: readonly Row[]): ScaffoldContent {
  const entities: Array<{ name: string; attributes: Array<{ id: string; text: string }> }> = [];
  for (const r of rows.filter((r) => r.kind === 'attribute')) {
    const name = r.entity.trim();
    const entity = entities.find((e) => e.name === name);
    if (entity) entity.attributes.push({ id: r.id, text: r.text.trim() });
    else entities.push({ name, attributes: [{ id: r.id, text: r.text.trim() }] });
  }
  return {
    facts: rows.filter((r) => r.kind === 'fact').map((r) => ({ id: r.id, text: r.text.trim(), tier: r.tier })),
    questions: rows
      .filter((r) => r.kind === 'question')
      .map((r) => ({ id: r.id, text: r.text.trim(), answer: r.answer.trim(), tier: r.tier })),
    entities,
  };
}

export function ScaffoldEditor({ layer, scaffold, onSave, onCancel, history }: ScaffoldEditorProps) {
  const [initial] = useState<Row[]>(() =>
    scaffold.items.map((i) => ({
      kind: i.kind,
      id: i.itemKey,
      text: i.text,
      tier: i.tier ?? 'supporting',
      answer: i.answer ?? '',
      entity: i.entity ?? '',
    })),
  );
  const [rows, setRows] = useState<Row[]>(initial);
  const [note, setNote] = useState('');
  const aligned = scaffold.items.filter((i) => i.state.value !== null).length;
  const content = toContent(rows);
  const problems = [
    ...scaffoldContentProblems(content),
    ...(rows.some((r) => r.text.trim() === '') ? ['every item needs a text'] : []),
    ...(rows.some((r) => r.kind === 'attribute' && r.entity.trim() === '') ? ['every attribute needs its entity'] : []),
  ];
  const save = () => {
    if (problems.length === 0) onSave(content, note.trim());
  };
  const dirty = note.trim() !== '' || JSON.stringify(rows) !== JSON.stringify(initial);
  const { card, requestCancel, confirm } = useEditorDialog({ layer, dirty, save, cancel: onCancel });

  // The field to focus after this render: the first at opening, an added row's, or the next row's after a drop.
  const fields = useRef(new Map<string, HTMLTextAreaElement>());
  const focusNext = useRef<string | null>(rows[0] ? rowKey(rows[0]) : null);
  useLayoutEffect(() => {
    if (focusNext.current === null) return;
    fields.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const field = (row: Row) => (el: HTMLTextAreaElement | null) => {
    if (el) fields.current.set(rowKey(row), el);
    else fields.current.delete(rowKey(row));
  };

  const update = (at: number, change: Partial<Row>) =>
    setRows((current) => current.map((r, i) => (i === at ? { ...r, ...change } : r)));
  const add = (kind: Kind) => {
    const row: Row = {
      kind,
      id: freshId(rows, kind),
      text: '',
      tier: 'supporting',
      answer: '',
      entity: kind === 'attribute' ? (rows.filter((r) => r.kind === 'attribute').at(-1)?.entity ?? '') : '',
    };
    const lastOfKind = rows.map((r) => r.kind).lastIndexOf(kind);
    const at = lastOfKind === -1 ? rows.length : lastOfKind + 1;
    focusNext.current = rowKey(row);
    setRows([...rows.slice(0, at), row, ...rows.slice(at)]);
  };
  const drop = (at: number) => {
    const next = rows[at + 1] ?? rows[at - 1];
    focusNext.current = next ? rowKey(next) : null;
    setRows(rows.filter((_, i) => i !== at));
  };

  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Edit the scaffold"
      data-testid="scaffold-editor"
    >
      <div className="overlay-card scaffold-editor" ref={card}>
        <h2>
          Review the scaffold of document <code>{scaffold.docId}</code>
        </h2>
        <p className="muted" data-testid="scaffold-editor-version">
          Saving makes version {(scaffold.version ?? 0) + 1}.{' '}
          {aligned > 0
            ? `Your ${plural(aligned, 'alignment')} (and everyone's) stay on version ${scaffold.version}; `
            : 'Alignments given so far stay on their version; '}
          the new version starts unaligned.
        </p>
        {history}
        <ol className="scaffold-edit-list">
          {rows.map((row, at) => (
            <li
              key={rowKey(row)}
              className={`scaffold-edit-row kind-${row.kind}`}
              data-testid={`scaffold-edit-${row.kind}-${row.id}`}
            >
              <span className="muted small scaffold-edit-kind">{row.kind}</span>
              {row.kind === 'attribute' && (
                <input
                  className="scaffold-edit-entity"
                  aria-label="Entity"
                  value={row.entity}
                  placeholder="entity"
                  onChange={(e) => update(at, { entity: e.target.value })}
                />
              )}
              <textarea
                className="scaffold-edit-text"
                ref={field(row)}
                rows={1}
                aria-label={`Text of ${row.kind} ${row.id}`}
                value={row.text}
                onChange={(e) => update(at, { text: e.target.value })}
                onKeyDown={noLineBreak}
              />
              {row.kind === 'question' && (
                <textarea
                  className="scaffold-edit-answer"
                  rows={1}
                  aria-label="Expected answer"
                  value={row.answer}
                  placeholder="expected answer"
                  onChange={(e) => update(at, { answer: e.target.value })}
                  onKeyDown={noLineBreak}
                />
              )}
              {row.kind !== 'attribute' && (
                <button
                  type="button"
                  className="scaffold-edit-tier"
                  data-testid={`scaffold-tier-${row.kind}-${row.id}`}
                  onClick={() => update(at, { tier: row.tier === 'main' ? 'supporting' : 'main' })}
                >
                  {row.tier}
                </button>
              )}
              <button
                type="button"
                className="scaffold-edit-drop"
                data-testid={`scaffold-drop-${row.kind}-${row.id}`}
                onClick={() => drop(at)}
              >
                Drop
              </button>
            </li>
          ))}
        </ol>
        <div className="row">
          <button type="button" data-testid="scaffold-add-fact" onClick={() => add('fact')}>
            Add fact
          </button>
          <button type="button" data-testid="scaffold-add-question" onClick={() => add('question')}>
            Add question
          </button>
          <button type="button" data-testid="scaffold-add-attribute" onClick={() => add('attribute')}>
            Add attribute
          </button>
        </div>
        <label className="scaffold-edit-note">
          Note{' '}
          <input
            aria-label="Note"
            value={note}
            placeholder="why this version (optional)"
            onChange={(e) => setNote(e.target.value)}
          />
        </label>
        {problems.length > 0 && (
          <p className="notice" data-testid="scaffold-editor-problems">
            {problems.join('; ')}
          </p>
        )}
        <div className="row">
          <button
            type="button"
            className="primary"
            data-testid="scaffold-editor-save"
            disabled={problems.length > 0}
            onClick={save}
          >
            Save as version {(scaffold.version ?? 0) + 1} <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" data-testid="scaffold-editor-cancel" onClick={requestCancel}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
        {confirm}
      </div>
    </div>
  );
}
