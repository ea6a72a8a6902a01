/**
 * "saving…" while any claim or key-fact label write is in flight: the same status (and test id)
 * the sentences' pane shows, so "nothing is saving" means the project holds what is painted in
 * every unit mode (test/helpers/browser.ts labelsStored waits on it).
 */
export function SavingStatus() {
  return (
    <span className="saving" data-testid="saving" role="status">
      {' '}
      saving…
    </span>
  );
}
