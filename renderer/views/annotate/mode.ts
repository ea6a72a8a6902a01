/**
 * A unit mode of Annotate as one object: its legend, its commands, its pane and the overlays its
 * keys open. The view holds the keys common to every mode (summary moves, help, T) and hands
 * every other command to the current mode (its layer of the keyboard).
 */
import type { ComponentType } from 'react';
import type { AnnotationSummary } from '../../../shared/api';
import type { AnnotateCommand, LegendEntry } from '../../keyboard';
import type { KeyPress } from '../../keys/dispatcher';
import type { UnitMode } from '../../state/unitMode';
import type { FocusSentence } from './focus';

export interface ModeContext {
  /** The project lead (not an annotator link): sees version histories and task buttons. */
  lead: boolean;
}

export interface AnnotateMode {
  mode: UnitMode;
  /** The mode's keys, in reading order (the view adds its own). */
  legend: ReadonlyArray<LegendEntry>;
  /** Runs `command` if it is this mode's; false: the view's (summary moves, help, T). */
  run(command: AnnotateCommand, press: KeyPress, context: ModeContext): boolean;
  /** The right pane for the summary on screen. */
  Pane: ComponentType<{ summary: AnnotationSummary; lead: boolean }>;
  /** The sentence whose closest passages the document shows (null: none). */
  useFocusSentence(summary: AnnotationSummary | null): FocusSentence;
}
