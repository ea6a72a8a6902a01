import { useEffect, useRef } from 'react';
import { RESYNC_WHAT, type ChangeEvent, type ChangeNamespace } from '../../shared/api';
import { useSession } from '../state/session';

/**
 * A view refetches what it shows when the core says it changed: `refetch` runs for each change
 * event of one of `namespaces` that `matches` accepts, and after a resync (events may have been
 * missed). The events come through the bridge (desktop IPC, `loupe serve`'s event stream), already
 * filtered for this connection's role. A burst (people labeling) is coalesced: while a refetch is
 * in flight, the events that arrive make one more afterwards, not one each.
 */
export function useChanges(
  namespaces: readonly ChangeNamespace[],
  refetch: (event: ChangeEvent) => void | Promise<void>,
  { enabled = true, matches }: { enabled?: boolean; matches?: (event: ChangeEvent) => boolean } = {},
): void {
  const bridge = useSession((state) => state.bridge);
  const latest = useRef({ refetch, matches, namespaces });
  latest.current = { refetch, matches, namespaces };
  useEffect(() => {
    if (!bridge || !enabled) return;
    let inFlight = false;
    let pending: ChangeEvent | null = null;
    const run = async (event: ChangeEvent): Promise<void> => {
      inFlight = true;
      try {
        await latest.current.refetch(event);
      } catch {
        // The view shows its own error; the next event tries again.
      } finally {
        inFlight = false;
      }
      const next = pending;
      pending = null;
      if (next) void run(next);
    };
    return bridge.onChange((event) => {
      const { matches: accepts, namespaces: wanted } = latest.current;
      if (event.what !== RESYNC_WHAT && !(wanted.includes(event.namespace) && (accepts?.(event) ?? true))) return;
      if (inFlight) pending = event;
      else void run(event);
    });
  }, [bridge, enabled]);
}
