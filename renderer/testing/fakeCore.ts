/**
 * An in-memory LoupeBridge for the renderer's tests: a tiny core holding summaries, units and
 * one annotator's labels, recording every call. Not imported by the app (not in the bundle).
 */
import type {
  Annotator,
  AnnotatorLink,
  AnnotationSummary,
  ApiInput,
  ApiMethod,
  ApiOutput,
  HostInfo,
  LoupeBridge,
  MenuAction,
  Progress,
  QueueItem,
  UnitLabelState,
} from '../../shared/api';
import { isLikelyFragment } from '../../shared/domain';
import { changeFor, parseApiInput, refusalFor, type Caller, type ChangeEvent } from '../../shared/api';
import { ApiError } from '../api/errors';
import { createTestTransport, type RecordedCall } from './transport';
import { createFakeAccuracy, type FakeAccuracy, type FakeAccuracySpec } from './fakeAccuracy';
import { createFakeScaffold, type FakeScaffold, type FakeScaffoldSpec } from './fakeScaffold';

export interface FakeSummarySpec {
  key: number;
  summaryId?: string;
  dataset?: string;
  docId?: string;
  document: string | null;
  sentences: string[];
  /** Labels already stored, by sentence index. */
  labels?: Array<UnitLabelState['label']>;
}

type Handler<M extends ApiMethod> = (input: ApiInput<M>) => Promise<ApiOutput<M>> | ApiOutput<M>;

const EMPTY_STATE: UnitLabelState = { label: null, errorType: null, note: null };

export interface FakeCore {
  bridge: LoupeBridge;
  calls: RecordedCall[];
  callsTo<M extends ApiMethod>(method: M): Array<ApiInput<M>>;
  stateOf(unitId: number): UnitLabelState;
  /** Replace one method's behaviour (e.g. a deferred or failing `annotation.record`). */
  override<M extends ApiMethod>(method: M, handler: Handler<M>): void;
  /** The real fake behaviour, for overrides that wrap it. */
  base<M extends ApiMethod>(method: M): Handler<M>;
  info: HostInfo;
  menu(action: MenuAction): void;
  /** A change event from the core, heard by the page's onChange listeners (as this link's role may see it). */
  change(event: Pick<ChangeEvent, 'namespace' | 'what'> & Partial<ChangeEvent>): void;
  summaries: AnnotationSummary[];
  /** Summary keys whose reveal was recorded (annotation.reveal), per annotator. */
  revealedKeys(annotator: string): number[];
  /** Whether the newest write of a unit was recorded blind (false: its summary was revealed first). */
  blindOf(unitId: number): boolean | undefined;
  /** The annotator links handed out (links.* answer `unsupported` unless `links` was given). */
  links: AnnotatorLink[];
  /** Claims, key facts, systems and accuracy task runs (fakeAccuracy.ts). */
  accuracy: FakeAccuracy;
  /** Scaffolds and people's alignments (fakeScaffold.ts). */
  scaffold: FakeScaffold;
}

export interface FakeCoreOptions {
  /** annotators.list; default one person, "ann". */
  annotators?: Annotator[];
  /** The host hands out annotator links (loupe serve); absent: links.* answer unsupported. */
  links?: AnnotatorLink[];
  /** Claims and key facts already imported (claims.*, keyfacts.* answer from these). */
  accuracy?: FakeAccuracySpec;
  /** Scaffolds already imported, per document id (scaffold.* answer from these). */
  scaffold?: FakeScaffoldSpec;
}

export function createFakeCore(
  specs: FakeSummarySpec[],
  info: Partial<HostInfo> = {},
  options: FakeCoreOptions = {},
): FakeCore {
  let nextUnitId = 100;
  const states = new Map<number, UnitLabelState>();
  const summaries: AnnotationSummary[] = specs.map((spec) => {
    const summary = spec.sentences.join(' ');
    let at = 0;
    const units = spec.sentences.map((text, index) => {
      const start = summary.indexOf(text, at);
      at = start + text.length;
      const id = nextUnitId++;
      const label = spec.labels?.[index] ?? null;
      if (label) states.set(id, { ...EMPTY_STATE, label });
      return { id, index, text, start, end: at, fragment: isLikelyFragment(text), state: EMPTY_STATE };
    });
    return {
      key: spec.key,
      dataset: spec.dataset ?? 'demo',
      summaryId: spec.summaryId ?? `s${spec.key}`,
      docId: spec.docId ?? `d${spec.key}`,
      summary,
      document: spec.document,
      splitter: 'test@1',
      units,
    };
  });

  const hostInfo: HostInfo = {
    version: '0.1.0',
    host: 'web',
    fileDialogs: false,
    canSwitchProjects: false,
    role: 'lead',
    project: { path: '/tmp/test.loupe', name: 'test', schemaVersion: 1, isDemo: false },
    annotator: 'ann',
    ...info,
    // A test that plays the desktop host gets its capabilities unless it says otherwise.
    diskPaths: info?.diskPaths ?? info?.host === 'electron',
    keychain: info?.keychain ?? info?.host === 'electron',
  };

  // The transport every renderer test uses (recording, menu and change listeners); behind it, the
  // fake's handlers, after the contract's input check and dispatch's role check.
  const transport = createTestTransport(async (method, input) => {
    const handler = handlers[method] as Handler<typeof method> | undefined;
    if (!handler) throw new ApiError({ code: 'unsupported', message: `fake core: ${method} not implemented` });
    // A real host answers asynchronously; so does the fake. It refuses what the contract refuses
    // (shared/api.ts parseApiInput, as dispatch does), so the UI meets the real refusal texts.
    await Promise.resolve();
    const parsed = parseApiInput(method, input);
    if (!parsed.ok) throw new ApiError(parsed.error);
    const refused = refusalFor(caller(), method, parsed.value);
    if (refused) throw new ApiError(refused);
    return handler(parsed.value as ApiInput<typeof method>);
  });
  const calls = transport.calls;
  const annotators: Annotator[] = options.annotators ?? [{ id: 1, name: 'ann', kind: 'person' }];
  const links: AnnotatorLink[] | null = options.links ? [...options.links] : null;
  const revealed = new Map<string, Set<number>>();
  const blind = new Map<number, boolean>();
  // Who calls, as a host establishes it: an annotator link is its annotator, everything else the lead.
  const caller = (): Caller =>
    hostInfo.role === 'annotator' && hostInfo.annotator
      ? { role: 'annotator', annotator: hostInfo.annotator }
      : { role: 'lead' };
  const unfinishedKeys = () => summaries.filter((s) => labeledIn(s) < s.units.length).map((s) => s.key);
  const revealStatus = (annotator: string) => {
    const shown = revealed.get(annotator) ?? new Set<number>();
    const unfinished = unfinishedKeys();
    return { annotator, unfinished: unfinished.length, revealed: unfinished.filter((key) => shown.has(key)).length };
  };
  const summaryOfUnit = (unitId: number) => summaries.find((s) => s.units.some((u) => u.id === unitId));
  let changeSeq = 0;
  const stateOf = (unitId: number): UnitLabelState => states.get(unitId) ?? EMPTY_STATE;
  const labeledIn = (summary: AnnotationSummary) => summary.units.filter((u) => stateOf(u.id).label !== null).length;

  function progress(): Progress {
    let unitsDone = 0;
    let unitsTotal = 0;
    let summariesDone = 0;
    for (const summary of summaries) {
      const labeled = labeledIn(summary);
      unitsDone += labeled;
      unitsTotal += summary.units.length;
      if (labeled === summary.units.length) summariesDone += 1;
    }
    return { unitsDone, unitsTotal, summariesDone, summariesTotal: summaries.length };
  }

  const handlers: { [M in ApiMethod]?: Handler<M> } = {
    'app.info': () => hostInfo,
    'projects.recent': () => [],
    'annotators.list': () => annotators.map((a) => ({ ...a })),
    'annotators.ensure': ({ name }) => {
      const known = annotators.find((a) => a.name === name);
      if (known?.kind === 'imported') {
        throw new ApiError({
          code: 'conflict',
          message: `"${name}" is an imported label set: it is read-only and cannot annotate.`,
        });
      }
      if (known) return { ...known };
      const added: Annotator = { id: annotators.length + 1, name, kind: 'person' };
      annotators.push(added);
      return { ...added };
    },
    'annotators.activity': () => {
      const labeled = summaries.reduce((n, s) => n + labeledIn(s), 0);
      return [
        {
          name: 'ann',
          kind: 'person' as const,
          annotationLabels: labeled,
          reviewDecisions: 0,
          claimLabels: 0,
          keyFactLabels: 0,
          scaffoldAlignments: 0,
          events: labeled,
          timedDecisions: labeled,
          medianMsPerDecision: labeled > 0 ? 4200 : null,
          fastDecisions: 0,
          firstAt: null,
          lastAt: null,
        },
      ];
    },
    'datasets.list': () => [
      {
        name: 'demo',
        documents: 2,
        documentsMissing: 0,
        summaries: summaries.length,
        units: 0,
        sampled: 0,
        batches: 0,
      },
    ],
    'sampling.list': () => [],
    // No dataset to plan unless a test overrides it (renderer-plan.test.tsx).
    'planning.plan': (input) => {
      const parsed = parseApiInput('planning.plan', input);
      if (!parsed.ok) throw new ApiError(parsed.error);
      const { target, bootstrap, seed, reference, humanLabel, includeRevealed } = parsed.value;
      return {
        target,
        min_summaries: 10,
        settings: { bootstrap, seed, reference, human_label: humanLabel, include_revealed: includeRevealed },
        datasets: [],
      };
    },
    'annotation.queue': ({ annotator }) => {
      const items: QueueItem[] = summaries.map((s) => ({
        key: s.key,
        dataset: s.dataset,
        summaryId: s.summaryId,
        docId: s.docId,
        units: s.units.length,
        labeled: labeledIn(s),
        documentMissing: s.document === null,
      }));
      const resume = items.findIndex((item) => item.labeled < item.units);
      return { annotator, items, progress: progress(), resumeAt: resume === -1 ? null : resume };
    },
    'annotation.load': ({ key, annotator }) => {
      const summary = summaries.find((s) => s.key === key);
      if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      // `revealed` as the backend may add it; the renderer reads it when present.
      const loaded: AnnotationSummary & { revealed?: boolean } = {
        ...summary,
        units: summary.units.map((u) => ({ ...u, state: stateOf(u.id) })),
      };
      if (revealed.get(annotator)?.has(key)) loaded.revealed = true;
      return loaded;
    },
    'annotation.record': ({ unitId, state, annotator }) => {
      states.set(unitId, { ...state });
      const key = summaryOfUnit(unitId)?.key;
      blind.set(unitId, !(key !== undefined && revealed.get(annotator)?.has(key)));
      return { eventId: calls.length, unitId, state: { ...state }, progress: progress() };
    },
    'annotation.revealStatus': ({ annotator }) => revealStatus(annotator),
    'annotation.reveal': ({ annotator }) => {
      const shown = revealed.get(annotator) ?? new Set<number>();
      let added = 0;
      for (const key of unfinishedKeys()) {
        if (!shown.has(key)) added += 1;
        shown.add(key);
      }
      revealed.set(annotator, shown);
      return { revealed: added, status: revealStatus(annotator) };
    },
    'links.list': () => {
      if (!links) throw new ApiError({ code: 'unsupported', message: 'Annotator links exist only in loupe serve.' });
      return links.map((link) => ({ ...link, url: null }));
    },
    'links.create': ({ annotator }) => {
      if (!links) throw new ApiError({ code: 'unsupported', message: 'Annotator links exist only in loupe serve.' });
      if (annotators.find((a) => a.name === annotator)?.kind === 'imported') {
        throw new ApiError({ code: 'conflict', message: `"${annotator}" is an imported label set, not a person.` });
      }
      const id = `link-${links.length + 1}`;
      const link: AnnotatorLink = {
        id,
        annotator,
        createdAt: '2026-11-05T10:00:00.000Z',
        url: `http://127.0.0.1:4173/?token=secret-${id}`,
      };
      links.push({ ...link, url: null });
      return link;
    },
    'links.revoke': ({ id }) => {
      if (!links) throw new ApiError({ code: 'unsupported', message: 'Annotator links exist only in loupe serve.' });
      const at = links.findIndex((link) => link.id === id);
      if (at !== -1) links.splice(at, 1);
      return { revoked: at !== -1 };
    },
    'annotation.attachDocument': ({ key, text }) => {
      const summary = summaries.find((s) => s.key === key);
      if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      const same = summaries.filter((s) => s.docId === summary.docId);
      for (const s of same) s.document = text;
      return { attached: same.length };
    },
  };

  // A run names a judge of judges.list when a test installed one (fakeJudges.ts), else any name.
  const knownJudge = (name: string): boolean => {
    const list = handlers['judges.list']?.({});
    return !Array.isArray(list) || list.some((judge) => judge.name === name);
  };
  const proposing = () => caller().role === 'annotator';
  const accuracy = createFakeAccuracy(summaries, options.accuracy ?? {}, { knownJudge, proposing });
  Object.assign(handlers, accuracy.handlers);
  const scaffold = createFakeScaffold(summaries, options.scaffold ?? {}, proposing);
  Object.assign(handlers, scaffold.handlers);

  const original = { ...handlers };
  return {
    bridge: transport.bridge,
    calls,
    callsTo: transport.callsTo,
    stateOf,
    override(method, handler) {
      (handlers as Record<string, unknown>)[method] = handler;
    },
    base<M extends ApiMethod>(method: M) {
      return original[method] as Handler<M>;
    },
    info: hostInfo,
    menu: transport.menu,
    change(partial) {
      changeSeq += 1;
      const event = changeFor({ seq: changeSeq, dataset: null, by: null, ...partial }, caller());
      if (event) transport.change(event);
    },
    summaries,
    revealedKeys: (annotator) => [...(revealed.get(annotator) ?? [])].sort((a, b) => a - b),
    blindOf: (unitId) => blind.get(unitId),
    get links() {
      return links ?? [];
    },
    accuracy,
    scaffold,
  };
}

export { deferred, resetRendererState } from './transport';
