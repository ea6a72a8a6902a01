/**
 * The Annotate view's keyboard map, in one place so the legend on screen and the handler can
 * never disagree.
 */
import type { HumanLabel } from '../shared/domain';
import { VIEW_KEYS_LEGEND } from './viewKeys';

export type AnnotateCommand =
  | { type: 'label'; label: HumanLabel }
  | { type: 'next-unit' }
  | { type: 'previous-unit' }
  | { type: 'next-summary' }
  | { type: 'previous-summary' }
  | { type: 'error-type' }
  | { type: 'note' }
  | { type: 'clear' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'help' }
  /** T: the unit the keys act on (sentences → claims → key facts). */
  | { type: 'unit-mode' }
  /** W: edit the claim set, the key-fact set or the scaffold (a new version). */
  | { type: 'edit-set' }
  /** R / 4: a scaffold fact or attribute the summary misrepresents. */
  | { type: 'misrepresented' };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** True while the user is typing: single-letter shortcuts must not fire there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  // Buttons and checkboxes take no text; everything else (text, number, search…) does.
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
}

/** A control the user tabbed to: Enter and Space belong to it, not to the shortcuts. */
export function isActivatable(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return (
    target.tagName === 'BUTTON' ||
    target.tagName === 'A' ||
    target.tagName === 'INPUT' ||
    target.getAttribute('role') === 'button'
  );
}

/** F/1, U/2, C/3: the three labels, the same in every view that decides. */
export const LABEL_KEYS: Readonly<Record<string, HumanLabel>> = {
  f: 'faithful',
  '1': 'faithful',
  u: 'unfaithful',
  '2': 'unfaithful',
  c: 'unclear',
  '3': 'unclear',
};

/** The label keys as a view's commands. */
export function labelKeyCommands<C>(make: (label: HumanLabel) => C): Record<string, C> {
  return Object.fromEntries(Object.entries(LABEL_KEYS).map(([key, label]) => [key, make(label)]));
}

/**
 * A view's key handler: Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, plain keys from the
 * map; other Alt/Ctrl combinations are left to the browser and the OS.
 */
export function keyCommands<C>(plain: Readonly<Record<string, C>>, undo: C, redo: C): (event: KeyLike) => C | null {
  return (event) => {
    const key = event.key.toLowerCase();
    const command = event.ctrlKey || event.metaKey;
    if (command && !event.altKey) {
      if (key === 'z') return event.shiftKey ? redo : undo;
      if (key === 'y' && !event.shiftKey) return redo;
      return null;
    }
    if (command || event.altKey) return null;
    return plain[key] ?? null;
  };
}

const PLAIN_KEYS: Record<string, AnnotateCommand> = {
  ...labelKeyCommands((label): AnnotateCommand => ({ type: 'label', label })),
  j: { type: 'next-unit' },
  arrowdown: { type: 'next-unit' },
  k: { type: 'previous-unit' },
  arrowup: { type: 'previous-unit' },
  enter: { type: 'next-summary' },
  n: { type: 'next-summary' },
  p: { type: 'previous-summary' },
  e: { type: 'error-type' },
  '/': { type: 'note' },
  m: { type: 'note' },
  x: { type: 'clear' },
  '?': { type: 'help' },
  t: { type: 'unit-mode' },
  w: { type: 'edit-set' },
  r: { type: 'misrepresented' },
  '4': { type: 'misrepresented' },
};

export const commandForKey = keyCommands<AnnotateCommand>(PLAIN_KEYS, { type: 'undo' }, { type: 'redo' });

export type LegendEntry = { keys: string; action: string; label?: HumanLabel };

/** What the always-visible legend shows, in reading order (the view keys come from annotateLegend). */
export const KEY_LEGEND: ReadonlyArray<LegendEntry> = [
  { keys: 'F / 1', action: 'Faithful', label: 'faithful' },
  { keys: 'U / 2', action: 'Unfaithful', label: 'unfaithful' },
  { keys: 'C / 3', action: 'Unclear / fragment', label: 'unclear' },
  { keys: 'J ↓ / K ↑', action: 'next / previous sentence' },
  { keys: 'Enter / N', action: 'next summary' },
  { keys: 'P', action: 'previous summary' },
  { keys: 'E', action: 'error type (after U)' },
  { keys: '/ or M', action: 'note' },
  { keys: 'X', action: 'clear label' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', action: 'undo / redo' },
  { keys: '?', action: 'help' },
];

/** Sentences mode: the sentence keys, T to the claims, and help. */
export const SENTENCE_LEGEND: ReadonlyArray<LegendEntry> = [
  ...KEY_LEGEND.slice(0, -1),
  { keys: 'T', action: 'unit: claims' },
  KEY_LEGEND.at(-1)!,
];

/**
 * Claims and key facts keep the sentence keys' places (F/1 yes, U/2 no, C/3 cannot tell; S is
 * the Project view): one hand position whatever the unit.
 */
export const CLAIM_LEGEND: ReadonlyArray<LegendEntry> = [
  { keys: 'F / 1', action: 'Supported', label: 'faithful' },
  { keys: 'U / 2', action: 'Unsupported', label: 'unfaithful' },
  { keys: 'C / 3', action: 'Unclear', label: 'unclear' },
  { keys: 'J ↓ / K ↑', action: 'next / previous claim' },
  { keys: 'Enter / N', action: 'next summary' },
  { keys: 'P', action: 'previous summary' },
  { keys: 'E', action: 'error type (after U)' },
  { keys: '/ or M', action: 'note on the claim' },
  { keys: 'W', action: 'edit the claims (new version)' },
  { keys: 'X', action: 'clear label' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', action: 'undo / redo (claim and key-fact labels)' },
  { keys: 'T', action: 'unit: key facts' },
  { keys: '?', action: 'help' },
];

export const KEY_FACT_LEGEND: ReadonlyArray<LegendEntry> = [
  { keys: 'F / 1', action: 'Covered', label: 'faithful' },
  { keys: 'U / 2', action: 'Not covered', label: 'unfaithful' },
  { keys: 'J ↓ / K ↑', action: 'next / previous key fact' },
  { keys: 'Enter / N', action: 'next summary' },
  { keys: 'P', action: 'previous summary' },
  { keys: 'E', action: 'conveyed by which sentences / claims (after F)' },
  { keys: '/ or M', action: 'note on the key fact' },
  { keys: 'W', action: 'edit the key facts (new version)' },
  { keys: 'X', action: 'clear label' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', action: 'undo / redo (claim and key-fact labels)' },
  { keys: 'T', action: 'unit: scaffold' },
  { keys: '?', action: 'help' },
];

/**
 * Scaffold items keep the same places: F/1 kept (Preserved / Answered), U/2 not kept (Missing /
 * Unanswered), C/3 Partial (facts); R/4 Misrepresented (facts and attributes; M is the note key).
 */
export const SCAFFOLD_LEGEND: ReadonlyArray<LegendEntry> = [
  { keys: 'F / 1', action: 'Preserved · question: Answered', label: 'faithful' },
  { keys: 'U / 2', action: 'Missing · question: Unanswered', label: 'unfaithful' },
  { keys: 'C / 3', action: 'Partial (facts)', label: 'unclear' },
  { keys: 'R / 4', action: 'Misrepresented (facts, attributes)' },
  { keys: 'J ↓ / K ↑', action: 'next / previous item' },
  { keys: 'Enter / N', action: 'next summary' },
  { keys: 'P', action: 'previous summary' },
  { keys: 'E', action: 'sentences that convey the fact (after F or C)' },
  { keys: '/ or M', action: 'note on the item' },
  { keys: 'W', action: 'review / edit the scaffold (new version)' },
  { keys: 'X', action: 'clear alignment' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', action: 'undo / redo (your scaffold alignments)' },
  { keys: 'T', action: 'unit: sentences' },
  { keys: '?', action: 'help' },
];

/** Annotate's legend and help: the keys of the current unit mode, and the view keys where this connection has them. */
export function annotateLegend(
  annotatorLink: boolean,
  modeKeys: ReadonlyArray<LegendEntry>,
): ReadonlyArray<LegendEntry> {
  // An annotator link has no other view: the view keys are not offered there.
  return annotatorLink ? modeKeys : [...modeKeys, VIEW_KEYS_LEGEND];
}
