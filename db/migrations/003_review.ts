/**
 * Schema 3 (review queues): where each review-phase decision was made.
 *
 * Decisions stay ordinary `label_events` of phase `review` (the append-only history: the current
 * decision of (unit, adjudicator) is the latest event, a revision is a new event). This table adds,
 * per such event, the queue it was recorded from and the judge panel that defined that queue, so
 * the rule "only decisions from the human-vs-human disagreement queue are adjudicated labels for
 * p̂ and ε̂" can be applied later without guessing. Review-phase events without a row here (those
 * imported from a labels file, or written before schema 3) have no known queue: they feed only
 * the review table and the corrected global labels.
 */
export const migration003 = `
CREATE TABLE review_events (
  event_id  INTEGER PRIMARY KEY REFERENCES label_events(id),
  queue     TEXT NOT NULL CHECK (queue IN ('suspicious', 'human-judge', 'judges-split', 'human-human')),
  -- JSON array of the judge names that defined the queue (the default panel written out).
  judges    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX review_events_queue ON review_events(queue, event_id);
`;
