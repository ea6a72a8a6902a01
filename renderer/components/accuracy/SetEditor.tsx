/**
 * W: edit a claim set (per sentence) or a key-fact set before labeling it: edit a text, split
 * one item in two, merge an item with the next, drop one, add one. Saving sends the whole new
 * set with each item's origins (claims.edit / keyfacts.edit): a new version, and the labels stay
 * on the version they were given on. Ctrl+Enter saves, Esc cancels.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface EditorGroup {
  /** A sentence's unit id (claims) or 0 (key facts: one list). */
  id: number;
  title: string | null;
}

export interface EditorItem {
  group: number;
  text: string;
  from: number[];
}

interface Row extends EditorItem {
  uid: number;
}

interface SetEditorProps {
  title: string;
  noun: string;
  groups: EditorGroup[];
  initial: EditorItem[];
  /** The annotator's labels on the version being edited (they stay on it). */
  labeled: number;
  version: number | null;
  /** The lead's version history (VersionHistory), shown above the items. */
  history?: ReactNode;
  onSave: (items: EditorItem[]) => void;
  onCancel: () => void;
}

let uids = 0;

export function SetEditor({ title, noun, groups, initial, labeled, version, history, onSave, onCancel }: SetEditorProps) {
  const [rows, setRows] = useState<Row[]>(() => initial.map((item) => ({ ...item, from: [...item.from], uid: ++uids })));
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const blank = rows.some((row) => row.text.trim() === '');
  const save = () => {
    if (!blank) onSave(rows.map(({ group, text, from }) => ({ group, text: text.trim(), from })));
  };
  const update = (uid: number, change: (row: Row) => Row | Row[] | null) =>
    setRows((current) => current.flatMap((row) => (row.uid === uid ? (change(row) ?? []) : [row])));

  function merge(uid: number) {
    setRows((current) => {
      const at = current.findIndex((row) => row.uid === uid);
      const row = current[at];
      const next = current.slice(at + 1).find((r) => r.group === row?.group);
      if (!row || !next) return current;
      const merged: Row = { ...row, text: `${row.text.trim()} ${next.text.trim()}`.trim(), from: [...new Set([...row.from, ...next.from])] };
      return current.filter((r) => r.uid !== next.uid).map((r) => (r.uid === uid ? merged : r));
    });
  }

  function add(group: number) {
    setRows((current) => {
      const last = current.map((row) => row.group).lastIndexOf(group);
      const copy = current.slice();
      copy.splice(last === -1 ? copy.length : last + 1, 0, { group, text: '', from: [], uid: ++uids });
      return copy;
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // The editor owns the keyboard: Annotate's keys are off while it is open.
    event.stopPropagation();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  }

  let firstAssigned = false;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={title} data-testid="set-editor" onKeyDown={onKeyDown}>
      <div className="overlay-card set-editor">
        <h2>{title}</h2>
        <p className="muted" data-testid="set-editor-version">
          {version === null ? `A first version of these ${noun}s.` : `Saving makes version ${version + 1} from version ${version}.`}{' '}
          {labeled > 0 && version !== null
            ? `Your ${labeled} label${labeled === 1 ? '' : 's'} stay on version ${version}; the new version starts unlabeled.`
            : ''}
        </p>
        {history}
        {groups.map((group) => (
          <section key={group.id} className="set-editor-group" data-testid={`set-editor-group-${group.id}`}>
            {group.title && <p className="claim-sentence-text">{group.title}</p>}
            <ol className="set-editor-items">
              {rows
                .filter((row) => row.group === group.id)
                .map((row, i) => {
                  const ref = !firstAssigned ? ((firstAssigned = true), first) : undefined;
                  return (
                    <li key={row.uid} className="set-editor-item" data-testid="set-editor-item">
                      <input
                        ref={ref}
                        type="text"
                        aria-label={`${noun} ${i + 1}`}
                        value={row.text}
                        data-testid="set-editor-text"
                        onChange={(event) => {
                          const text = event.target.value;
                          update(row.uid, (r) => ({ ...r, text }));
                        }}
                      />
                      <button type="button" data-testid="set-editor-split" title={`Split: a second ${noun} from the same origin, to edit`} onClick={() => update(row.uid, (r) => [r, { ...r, from: [...r.from], uid: ++uids }])}>
                        Split
                      </button>
                      <button type="button" data-testid="set-editor-merge" title={`Merge with the next ${noun}`} onClick={() => merge(row.uid)}>
                        Merge ↓
                      </button>
                      <button type="button" data-testid="set-editor-drop" onClick={() => update(row.uid, () => null)}>
                        Drop
                      </button>
                      {row.from.length === 0 && <span className="tag">new</span>}
                    </li>
                  );
                })}
            </ol>
            <button type="button" className="link-button" data-testid={`set-editor-add-${group.id}`} onClick={() => add(group.id)}>
              + Add a {noun}
            </button>
          </section>
        ))}
        {blank && <p className="notice">Every {noun} needs a text (drop the empty ones).</p>}
        <div className="row">
          <button type="button" className="primary" disabled={blank} data-testid="set-editor-save" onClick={save}>
            Save as a new version <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" onClick={onCancel}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
