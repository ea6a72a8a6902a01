/**
 * export.*: the project's labels (or predictions, review results, claims, scaffolds, the card) as one file.
 */
import { z } from 'zod';

export const ExportInputSchema = z.object({
  format: z.enum(['jsonl', 'csv']),
  history: z.boolean().default(false),
  dataset: z.string().optional(),
  /** Judge predictions (one row per sentence and judge, current version) instead of labels. */
  predictions: z.boolean().optional(),
  /** Review results (one row per review-phase decision) instead of labels. */
  review: z.boolean().optional(),
  /**
   * Claims and key facts instead of labels: Loupe's accuracy records (summaries, system
   * outputs, key-fact and claim sets with their provenance, people's labels, judge outputs), the
   * file `loupe import --as accuracy` reads back.
   */
  accuracy: z.boolean().optional(),
  /** Semantic Scaffolds instead of labels: one `scaffold` line per document (current version), JSON Lines only; import back with --as scaffold. */
  scaffold: z.boolean().optional(),
  /** The scaffold alignments: one `scaffold-alignments` line per (summary, source) on the current version, JSON Lines only. */
  scaffoldAlignments: z.boolean().optional(),
  /**
   * The dataset card instead of rows: one JSON document (counts, annotators and adjudicators, dates,
   * Loupe version, splitters, judge configurations without keys or env values, the label rules).
   */
  card: z.boolean().optional(),
  /**
   * CSV only: write text cells exactly as stored. By default a cell starting with = + - @ TAB or CR
   * gets a leading ' so a spreadsheet cannot run it as a formula (CSV injection).
   */
  rawCsv: z.boolean().optional(),
});
export type ExportInput = z.infer<typeof ExportInputSchema>;

export const ExportOutputSchema = z.object({
  fileName: z.string(),
  mime: z.string(),
  content: z.string(),
  rows: z.number().int(),
});

export const EXPORT_API = {
  'export.build': { input: ExportInputSchema, output: ExportOutputSchema },
} as const;
