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

/** Every export's file name without extension (project, dataset, what it holds): the core names files so, and the desktop proposes it in the Save dialog. */
export const exportFileStem = (projectName: string, dataset: string | undefined, what: string): string =>
  `${projectName}${dataset ? `-${dataset}` : ''}-${what}`;

export const ExportOutputSchema = z.object({
  fileName: z.string(),
  mime: z.string(),
  content: z.string(),
  rows: z.number().int(),
});

/** export.write: the same file streamed to a path on this machine (the CLI's --out, the desktop's Save dialog). */
export const ExportWriteInputSchema = ExportInputSchema.extend({
  /** Where to write; its extension must be the file's (.jsonl, .csv, or .json for the card). Written whole or not at all. */
  path: z.string().min(1).max(4_096),
});
export type ExportWriteInput = z.infer<typeof ExportWriteInputSchema>;

export const ExportWriteOutputSchema = z.object({
  path: z.string(),
  fileName: z.string(),
  rows: z.number().int(),
  bytes: z.number().int(),
});

export const EXPORT_API = {
  /** The file as text in the answer (a browser download; small exports). */
  'export.build': { input: ExportInputSchema, output: ExportOutputSchema },
  /** The file streamed to `path`, rows read in batches: memory stays flat however large the project. */
  'export.write': { input: ExportWriteInputSchema, output: ExportWriteOutputSchema },
} as const;
