/**
 * The keys that open views, the same from every view, and the tabs that show
 * them. One place, so the tabs, the legend, the help and the handler never disagree.
 *
 * L (for "label") goes back to Annotate: free in Annotate and Review, whose keys are F/U/C/1-3,
 * J/K, Enter/N, P, E, M, /, X, R and ?; N is taken (next summary), and so is Enter.
 */
import type { View } from './state/session';

export const VIEW_TABS: ReadonlyArray<{ view: Exclude<View, 'start'>; label: string; key: string; title: string }> = [
  { view: 'project', label: 'Project', key: 'S', title: 'Project: datasets, import, sample, export' },
  { view: 'annotate', label: 'Annotate', key: 'L', title: 'Annotate: label sentences' },
  { view: 'judges', label: 'Judges', key: 'G', title: 'Judges' },
  { view: 'analysis', label: 'Analysis', key: 'A', title: 'Analysis: the judge audit' },
  { view: 'review', label: 'Review', key: 'V', title: 'Review: adjudicate suspicious summaries and disagreements' },
];

/** Single keys (lower case) that open a view from any view. */
export const VIEW_KEYS: Readonly<Record<string, Exclude<View, 'start'>>> = Object.fromEntries(
  VIEW_TABS.map((tab) => [tab.key.toLowerCase(), tab.view]),
);

/** The legend and help line for the view keys (the lead's: an annotator link has no other view). */
export const VIEW_KEYS_LEGEND = {
  keys: 'S G A V / L',
  action: 'Project, Judges, Analysis, Review / back to Annotate',
} as const;
