/**
 * W: edit a claim set (per sentence) or a key-fact set before labeling it: edit a text, split
 * one item in two, merge an item with the next, drop one, add one. Saving sends the whole new
 * set with each item's origins (claims.edit / keyfacts.edit): a new version, and the labels stay
 * on the version they were given on. A dialog (EditorDialog.tsx): the focus stays inside (Tab
 * cycles), a new or split item's field takes the focus, Ctrl+Enter saves, Esc asks before
 * discarding edits.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Layer } from '../../keys/dispatcher';
import { useEditorDialog } from '../EditorDialog';
import { agree, plural } from '../../format';

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
  /** The editor's layer, opened by W. */
  layer: Layer;
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

export function SetEditor({
  layer,
  title,
  noun,
  groups,
  initial,
  labeled,
  version,
  history,
  onSave,
  onCancel,
}: SetEditorProps) {
  const [rows, setRows] = useState<Row[]>(() =>
    initial.map((item) => ({ ...item, from: [...item.from], uid: ++uids })),
  );
  const fields = useRef(new Map<number, HTMLInputElement>());
  // The field to focus after this render (the first at opening; a new, split or next row after a change).
  const focusNext = useRef<number | null>(rows[0]?.uid ?? null);
  useLayoutEffect(() => {
    if (focusNext.current === null) return;
    fields.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const blank = rows.some((row) => row.text.trim() === '');
  const dirty =
    JSON.stringify(rows.map(({ group, text, from }) => [group, text, from])) !==
    JSON.stringify(initial.map(({ group, text, from }) => [group, text, from]));
  const save = () => {
    if (!blank) onSave(rows.map(({ group, text, from }) => ({ group, text: text.trim(), from })));
  };
  const { card, requestCancel, confirm } = useEditorDialog({ layer, dirty, save, cancel: onCancel });
  const update = (uid: number, change: (row: Row) => Row | Row[] | null) =>
    setRows((current) => current.flatMap((row) => (row.uid === uid ? (change(row) ?? []) : [row])));

  function split(row: Row) {
    const copy = { ...row, from: [...row.from], uid: ++uids };
    focusNext.current = copy.uid;
    update(row.uid, (r) => [r, copy]);
  }

  function drop(uid: number) {
    // The focus goes to the next item of the list (or the one before), not to the page.
    const at = rows.findIndex((row) => row.uid === uid);
    focusNext.current = (rows[at + 1] ?? rows[at - 1])?.uid ?? null;
    update(uid, () => null);
  }

  function merge(uid: number) {
    focusNext.current = uid;
    setRows((current) => {
      const at = current.findIndex((row) => row.uid === uid);
      const row = current[at];
      const next = current.slice(at + 1).find((r) => r.group === row?.group);
      if (!row || !next) return current;
      const merged: Row = {
        ...row,
        text: `${row.text.trim()} ${next.text.trim()}`.trim(),
        from: [...new Set([...row.from, ...next.from])],
      };
      return current.filter((r) => r.uid !== next.uid).map((r) => (r.uid === uid ? merged : r));
    });
  }

  function add(group: number) {
    // The new item's field takes the focus: what is typed next (spaces too) is its text, not a press of "+ Add".
    const uid = ++uids;
    focusNext.current = uid;
    setRows((current) => {
      const last = current.map((row) => row.group).lastIndexOf(group);
      const copy = current.slice();
      copy.splice(last === -1 ? copy.length : last + 1, 0, { group, text: '', from: [], uid });
      return copy;
    });
  }

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={title} data-testid="set-editor">
      <div className="overlay-card set-editor" ref={card}>
        <h2>{title}</h2>
        <p className="muted" data-testid="set-editor-version">
          {version === null
            ? `A first version of these ${noun}s.`
            : `Saving makes version ${version + 1} from version ${version}.`}{' '}
          {labeled > 0 && version !== null
            ? `Your ${plural(labeled, 'label')} ${agree(labeled, 'stays', 'stay')} on version ${version}; the new version starts unlabeled.`
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
                  return (
                    <li key={row.uid} className="set-editor-item" data-testid="set-editor-item">
                      <input
                        ref={(el) => {
                          if (el) fields.current.set(row.uid, el);
                          else fields.current.delete(row.uid);
                        }}
                        type="text"
                        aria-label={`${noun} ${i + 1}`}
                        value={row.text}
                        data-testid="set-editor-text"
                        onChange={(event) => {
                          const text = event.target.value;
                          update(row.uid, (r) => ({ ...r, text }));
                        }}
                      />
                      <button
                        type="button"
                        data-testid="set-editor-split"
                        title={`Split: a second ${noun} from the same origin, to edit`}
                        onClick={() => split(row)}
                      >
                        Split
                      </button>
                      <button
                        type="button"
                        data-testid="set-editor-merge"
                        title={`Merge with the next ${noun}`}
                        onClick={() => merge(row.uid)}
                      >
                        Merge ↓
                      </button>
                      <button type="button" data-testid="set-editor-drop" onClick={() => drop(row.uid)}>
                        Drop
                      </button>
                      {row.from.length === 0 && <span className="tag">new</span>}
                    </li>
                  );
                })}
            </ol>
            <button
              type="button"
              className="link-button"
              data-testid={`set-editor-add-${group.id}`}
              onClick={() => add(group.id)}
            >
              + Add a {noun}
            </button>
          </section>
        ))}
        {blank && <p className="notice">Every {noun} needs a text (drop the empty ones).</p>}
        <div className="row">
          <button type="button" className="primary" disabled={blank} data-testid="set-editor-save" onClick={save}>
            Save as a new version <kbd>Ctrl+Enter</kbd>
          </button>
          <button type="button" data-testid="set-editor-cancel" onClick={requestCancel}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
        {confirm}
      </div>
    </div>
  );
}
