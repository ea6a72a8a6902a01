/**
 * links.*: annotator links of `loupe serve`, each bound to one annotator.
 */
import { z } from 'zod';
import { Empty, Name } from './primitives';

export const AnnotatorLinkSchema = z.object({
  id: z.string(),
  annotator: z.string(),
  createdAt: z.string(),
  /** The link with its token: shown once, when created (null in listings). */
  url: z.string().nullable(),
});
export type AnnotatorLink = z.infer<typeof AnnotatorLinkSchema>;

export const LINKS_API = {
  /** Lead only, hosts with links (loupe serve): the annotator links handed out, without their tokens. */
  'links.list': { input: Empty, output: z.array(AnnotatorLinkSchema) },
  /** A new link for one annotator (a person, never an imported label set); its url carries the token, shown once. */
  'links.create': { input: z.object({ annotator: Name }), output: AnnotatorLinkSchema },
  /** Stops a link at once: its next call is refused. */
  'links.revoke': { input: z.object({ id: z.string().min(1) }), output: z.object({ revoked: z.boolean() }) },
} as const;
