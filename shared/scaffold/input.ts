/**
 * What the analysis reads of one dataset's Semantic Scaffolds (the loader fills it from
 * db/scaffoldRepository.ts): summaries with their system and sentence count, every scaffold version
 * of the dataset's documents with its items, and every current alignment (cleared ones left out).
 */
import type { AlignmentValue, ScaffoldItemKind, Tier } from './domain';

export interface ScaffoldInputSummary {
  key: number;
  summaryId: string;
  docId: string;
  /** The system under test that produced it (system outputs, else the summary's `system` field). */
  system: string | null;
  sentenceCount: number;
}

export interface ScaffoldInputVersion {
  id: number;
  docId: string;
  version: number;
  items: Array<{ id: number; kind: ScaffoldItemKind; tier: Tier | null }>;
  /** Who made it: the maker (`task:<kind>@<config hash>` for a model, else the file or person); absent: not known. */
  extractor?: string;
}

export interface ScaffoldInputAlignment {
  summaryKey: number;
  scaffoldId: number;
  itemId: number;
  /** "human:<annotator>" or "judge:<name>". */
  source: string;
  /** For people: person or imported (the reference set chooses); null for a judge. */
  annotatorKind: 'person' | 'imported' | null;
  blind: boolean;
  value: AlignmentValue;
  /** 0-based summary sentence indexes linked to the fact (Fact Focus). */
  sentences: number[];
  /** A judge's alignment: the task kind whose run wrote it (which prompts), or "imported"; absent for people or when not known. */
  madeBy?: string;
}

/** One judge's direct score (App. G.7, the mean of its four 1–10 axes) of one summary. */
export interface ScaffoldInputDirectScore {
  summaryKey: number;
  judge: string;
  score: number;
}

export interface ScaffoldInput {
  summaries: ScaffoldInputSummary[];
  scaffolds: ScaffoldInputVersion[];
  alignments: ScaffoldInputAlignment[];
  /** The direct_score task's scores (absent: none). */
  directScores?: ScaffoldInputDirectScore[];
}
