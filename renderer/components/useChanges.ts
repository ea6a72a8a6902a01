import { useEffect, useRef } from 'react';
import { RESYNC_WHAT, type ChangeEvent, type ChangeNamespace } from '../../shared/api';
import { useSession } from '../state/session';

/**
 * A view refetches what it shows when the core says it changed: `refetch` runs for each change
 * event of one of `namespaces` that `matches` accepts, and after a resync (events may have been
 * missed). The events come through the bridge (desktop IPC, `loupe serve`'s event stream), already
 * filtered for this connection's role.
 */
export function useChanges(
  namespaces: readonly ChangeNamespace[],
  refetch: (event: ChangeEvent) => void,
  { enabled = true, matches }: { enabled?: boolean; matches?: (event: ChangeEvent) => boolean } = {},
): void {
  const bridge = useSession((state) => state.bridge);
  const latest = useRef({ refetch, matches, namespaces });
  latest.current = { refetch, matches, namespaces };
  useEffect(() => {
    if (!bridge || !enabled) return;
    return bridge.onChange((event) => {
      const { refetch: run, matches: accepts, namespaces: wanted } = latest.current;
      if (event.what === RESYNC_WHAT || (wanted.includes(event.namespace) && (accepts?.(event) ?? true))) run(event);
    });
  }, [bridge, enabled]);
}
