/**
 * Said in the pane of a set after an annotator link's edit: it became a proposal for the lead, and
 * the set everyone labels (this person included) stays the version shown until the lead accepts it.
 */
export function ProposalPending({
  what,
  proposal,
  version,
  testId,
}: {
  what: string;
  proposal: number;
  version: number | null;
  testId: string;
}) {
  return (
    <p className="notice" role="status" data-testid={testId} data-proposal={proposal}>
      Your edit of the {what} is proposal {proposal}, pending: it changes nothing until the lead accepts it. You keep
      labeling version {version ?? 'none'}.
    </p>
  );
}
