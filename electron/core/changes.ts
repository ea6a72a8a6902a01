/**
 * The core's change events: one bus per core. A writing handler (CHANGING_METHODS) emits once it
 * returned, its write committed; background work (an import job, a judge or task run) emits when
 * it ends. Hosts subscribe and pass each event on, filtered by the receiver's role
 * (shared/contract/events.ts `changeFor`): desktop IPC, `loupe serve`'s event stream.
 */
import {
  ANNOTATOR_METHODS,
  CHANGING_METHODS,
  type ApiHandlers,
  type ApiMethod,
  type Caller,
  type ChangeEvent,
  type ChangeNamespace,
} from '../../shared/api';

export type ChangeListener = (event: ChangeEvent) => void;

export interface ChangeBus {
  emit(change: { namespace: ChangeNamespace; what: string; dataset?: string | null; by?: string | null }): void;
  subscribe(listener: ChangeListener): () => void;
}

export function createChangeBus(): ChangeBus {
  const listeners = new Set<ChangeListener>();
  let seq = 0;
  return {
    emit(change) {
      seq += 1;
      const event: ChangeEvent = {
        seq,
        namespace: change.namespace,
        what: change.what,
        dataset: change.dataset ?? null,
        by: change.by ?? null,
      };
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // A host's failing listener (a closed window, a dropped stream) never fails the write.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The annotator a call writes for: the input field the role check reads (annotation.record's `annotator`, …). */
function writerOf(method: ApiMethod, input: unknown): string | null {
  const field = (ANNOTATOR_METHODS as Partial<Record<ApiMethod, string | null>>)[method];
  if (!field) return null;
  const named = (input as Record<string, unknown> | null)?.[field];
  return typeof named === 'string' ? named : null;
}

function datasetOf(input: unknown): string | null {
  const dataset = (input as Record<string, unknown> | null)?.dataset;
  return typeof dataset === 'string' ? dataset : null;
}

/** The handlers with every writing method emitting its change once it has returned. */
export function withChangeEvents(handlers: ApiHandlers, bus: ChangeBus): ApiHandlers {
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const method of CHANGING_METHODS) {
    const handler = handlers[method] as (input: unknown, caller?: Caller) => Promise<unknown>;
    wrapped[method] = async (input: unknown, caller?: Caller) => {
      const value = await handler(input, caller);
      bus.emit({
        namespace: method.slice(0, method.indexOf('.')) as ChangeNamespace,
        what: method,
        dataset: datasetOf(input),
        by: writerOf(method, input),
      });
      return value;
    };
  }
  return wrapped as ApiHandlers;
}
