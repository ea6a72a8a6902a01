/**
 * The renderer's tests talk to a real core; what stays a test double is only the transport between
 * them: a LoupeBridge around any `call` that records every call and lets a test delay, fail or
 * hang chosen methods (a write "in flight", a full disk, an offline server). It decides nothing a
 * handler decides. Not imported by the app (not in the bundle).
 */
import type { ApiInput, ApiMethod, ApiOutput, ChangeEvent, LoupeBridge, MenuAction } from '../../shared/api';
import { resetAnnotation } from '../state/annotation';
import { resetClaimsAndKeyFacts } from '../state/claimsAndKeyFacts';
import { resetScaffold } from '../state/scaffold';
import { resetAccuracyTasks } from '../state/accuracyTasks';
import { resetReveal } from '../state/reveal';
import { useImports } from '../state/imports';
import { useProject } from '../state/project';
import { useSession } from '../state/session';

export interface RecordedCall {
  method: ApiMethod;
  input: unknown;
}

export type Handler<M extends ApiMethod> = (input: ApiInput<M>) => Promise<ApiOutput<M>> | ApiOutput<M>;

/** One call to the other side of the transport; it throws ApiError on a refusal. */
export type Call = <M extends ApiMethod>(method: M, input: ApiInput<M>) => Promise<ApiOutput<M>>;

export interface TestTransport {
  bridge: LoupeBridge;
  calls: RecordedCall[];
  callsTo<M extends ApiMethod>(method: M): Array<ApiInput<M>>;
  /** Replace one method's answer on the way (e.g. a deferred or failing `annotation.record`). */
  override<M extends ApiMethod>(method: M, handler: Handler<M>): void;
  /** The method as the other side answers it, for overrides that wrap it. */
  base<M extends ApiMethod>(method: M): Handler<M>;
  /** The desktop application menu (the preload's onMenu). */
  menu(action: MenuAction): void;
  /** A change event from the core, heard by the page's onChange listeners. */
  change(event: ChangeEvent): void;
}

export function createTestTransport(call: Call, host: LoupeBridge['host'] = 'web'): TestTransport {
  const calls: RecordedCall[] = [];
  const overrides = new Map<ApiMethod, Handler<ApiMethod>>();
  const menuListeners = new Set<(action: MenuAction) => void>();
  const changeListeners = new Set<(event: ChangeEvent) => void>();

  const bridge: LoupeBridge = {
    host,
    async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
      calls.push({ method, input: structuredClone(input) });
      const override = overrides.get(method) as Handler<M> | undefined;
      // What crosses IPC or HTTP is a copy: the renderer never shares objects with the core.
      const answer = override ? await override(input) : await call(method, structuredClone(input));
      return structuredClone(answer);
    },
    onMenu(listener) {
      menuListeners.add(listener);
      return () => menuListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => {
        changeListeners.delete(listener);
      };
    },
    pathForFile: () => null,
  };

  return {
    bridge,
    calls,
    callsTo: <M extends ApiMethod>(method: M) =>
      calls.filter((c) => c.method === method).map((c) => c.input as ApiInput<M>),
    override(method, handler) {
      overrides.set(method, handler as Handler<ApiMethod>);
    },
    base<M extends ApiMethod>(method: M): Handler<M> {
      return (input) => call(method, input);
    },
    menu(action) {
      for (const listener of menuListeners) listener(action);
    },
    change(event) {
      for (const listener of changeListeners) listener(event);
    },
  };
}

/** A promise with its resolve/reject exposed, to hold a write "in flight" in a test. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Test isolation: the stores are module singletons. */
export function resetRendererState(): void {
  resetAnnotation();
  resetClaimsAndKeyFacts();
  resetScaffold();
  resetAccuracyTasks();
  resetReveal();
  useSession.setState({
    bridge: null,
    info: null,
    annotator: null,
    switching: false,
    view: 'start',
    booting: true,
    error: null,
  });
  useProject.setState({ datasets: [], batches: [], loading: false, error: null });
  useImports.setState({
    kind: '',
    dataset: '',
    sourceName: null,
    job: null,
    starting: false,
    error: null,
    problems: [],
  });
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // No DOM storage in this environment.
  }
}
