/** A claim's, key fact's or scaffold item's note as the sentences show theirs: a tag whose title is the note. */
export function NoteTag({ note, testId }: { note: string; testId: string }) {
  return (
    <span className="tag tag-note" data-testid={testId} title={note} aria-label={`Note: ${note}`}>
      ✎ note
    </span>
  );
}
