/**
 * proposals.*: edits an annotator link made to a shared set (a summary's claims, a document's key
 * facts or scaffold). Such an edit (claims.edit, keyfacts.edit, scaffold.edit from an annotator
 * link) is stored as a proposal, current for nobody: everyone keeps labeling the current version
 * until the lead accepts it, which writes the next version exactly as the lead's own edit does
 * (labels on earlier versions stay there). A proposal made on a version that is no longer current
 * cannot be accepted (conflict): the author proposes again on the current one.
 *
 * Roles: the lead lists, accepts and declines every proposal; an annotator link lists only its own
 * (`author` must name it).
 */
import { z } from 'zod';
import { ClaimEditInputSchema } from './claims';
import { KeyFactEditInputSchema } from './keyfacts';
import { ScaffoldEditInputSchema } from './scaffold';
import { Id, Name } from './primitives';

export const PROPOSAL_KINDS = ['claims', 'keyfacts', 'scaffold'] as const;
export const ProposalKindSchema = z.enum(PROPOSAL_KINDS);
export type ProposalKind = z.infer<typeof ProposalKindSchema>;
export const ProposalStatusSchema = z.enum(['pending', 'accepted', 'declined']);
export type ProposalStatus = z.infer<typeof ProposalStatusSchema>;

/** What a proposal holds, per kind: the items of its edit, as the edit method takes them. */
export const PROPOSAL_CONTENT = {
  claims: z.object({ claims: ClaimEditInputSchema.shape.claims }),
  keyfacts: z.object({ facts: KeyFactEditInputSchema.shape.facts }),
  scaffold: ScaffoldEditInputSchema.pick({ facts: true, questions: true, entities: true }),
} as const satisfies Record<ProposalKind, z.ZodType>;
export type ProposalContent<K extends ProposalKind> = z.output<(typeof PROPOSAL_CONTENT)[K]>;

export const DiffLineSchema = z.object({ op: z.enum(['same', 'removed', 'added']), text: z.string() });

export const ProposalSchema = z.object({
  id: Id,
  kind: ProposalKindSchema,
  author: z.string(),
  dataset: z.string(),
  documentKey: Id,
  docId: z.string(),
  /** Claims: the summary whose claims it changes; null for key facts and scaffolds (a document's). */
  summaryKey: Id.nullable(),
  summaryId: z.string().nullable(),
  /** The version it was made on (null: the target had none) and the one current now. */
  baseVersion: Id.nullable(),
  currentVersion: Id.nullable(),
  /** Pending, but another version has become current since: accepting it is refused. */
  stale: z.boolean(),
  note: z.string().nullable(),
  status: ProposalStatusSchema,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The lead's reason, when declined with one. */
  decisionNote: z.string().nullable(),
  /** The version accepting it created. */
  resultVersion: Id.nullable(),
  /** Its items against the base version's, one line per item. */
  diff: z.array(DiffLineSchema),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const PROPOSALS_API = {
  /** Newest first. An annotator link must name itself as `author`. */
  'proposals.list': {
    input: z
      .object({ author: Name.optional(), status: ProposalStatusSchema.optional(), documentKey: Id.optional() })
      .strict(),
    output: z.array(ProposalSchema),
  },
  /** Lead: the proposal becomes the next version of its target (refused when its base is no longer current). */
  'proposals.accept': { input: z.object({ id: Id }).strict(), output: ProposalSchema },
  /** Lead: the proposal is closed without a version; the reason is shown to its author. */
  'proposals.decline': {
    input: z.object({ id: Id, note: z.string().trim().max(2_000).optional() }).strict(),
    output: ProposalSchema,
  },
} as const;

/** An annotator link may list its own proposals. */
export const PROPOSALS_ANNOTATOR_METHODS = {
  'proposals.list': 'author',
} as const;
