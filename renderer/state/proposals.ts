/**
 * An annotator link's own pending proposals, read when Annotate shows a set (claims, key facts,
 * scaffold), so the pane says the edit is pending after a reload too. Lead tabs edit directly and
 * never ask. A host without proposals (or a failed read) reads as none: the pane shows the set.
 */
import type { ProposalKind } from '../../shared/contract/proposals';
import { bridge, isAnnotatorLink } from './session';

/** The id of the newest pending proposal of `author` for this set, or null. */
export async function pendingProposalFor(
  author: string,
  kind: ProposalKind,
  target: { documentKey?: number; summaryKey?: number },
): Promise<number | null> {
  if (!isAnnotatorLink()) return null;
  try {
    const pending = await bridge().call('proposals.list', {
      author,
      status: 'pending',
      ...(target.documentKey !== undefined ? { documentKey: target.documentKey } : {}),
    });
    return (
      pending.find((p) => p.kind === kind && (target.summaryKey === undefined || p.summaryKey === target.summaryKey))
        ?.id ?? null
    );
  } catch {
    return null;
  }
}
