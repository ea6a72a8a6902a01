/**
 * merge.*: merging annotators' copies of a project into this one.
 */
import { z } from 'zod';

/** Merging annotators' copies: what happened to one file (all of it merged, or nothing: see problems). */
export const MergeFileResultSchema = z.object({
  path: z.string(),
  sourceProject: z.string().nullable(),
  merged: z.boolean(),
  eventsAdded: z.number().int(),
  eventsPresent: z.number().int(),
  /** Schema 9: of the events above, people's scaffold alignments; and people's scaffold versions added. */
  alignmentsAdded: z.number().int().optional(),
  alignmentsPresent: z.number().int().optional(),
  scaffoldsAdded: z.number().int().optional(),
  /** Schema 8: of the events above, people's claim and key-fact events (labels, notes, sentence–key-fact). */
  itemLabelsAdded: z.number().int().optional(),
  itemLabelsPresent: z.number().int().optional(),
  /** People's claim sets and key-fact lists this project lacked, added as their summary's or document's next version. */
  itemSetsAdded: z.number().int().optional(),
  annotators: z.array(z.string()),
  annotatorsAdded: z.array(z.string()),
  summariesMatched: z.number().int(),
  summariesNotInProject: z.number().int(),
  problems: z.array(z.string()),
});
export type MergeFileResult = z.infer<typeof MergeFileResultSchema>;

export const MERGE_API = {
  /** Merges the label histories of annotators' copies (paths on disk: desktop and CLI), one transaction per file. */
  'merge.projects': {
    input: z.object({ paths: z.array(z.string().min(1)).min(1).max(100) }),
    output: z.array(MergeFileResultSchema),
  },
} as const;
