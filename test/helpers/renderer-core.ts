/**
 * The renderer's tests against the real core: a project on a real SQLite file in a temp folder,
 * seeded through the contract (an upload import of Loupe's summaries format with the sentences
 * given, labels through annotation.record), called through dispatch as a host calls it, with the
 * caller a host establishes (the lead, or the annotator of a link). The bridge the App gets is the
 * recording transport of renderer/testing/transport.ts, where a test may delay or fail calls.
 *
 * Seeding is the slow part, so each distinct seed is built once per test file and copied.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import {
  ApiError,
  changeFor,
  type AnnotationSummary,
  type ApiInput,
  type ApiMethod,
  type ApiOutput,
  type Caller,
  type ChangeEvent,
  type HostInfo,
  type UnitLabelState,
} from '../../shared/api';
import { isLikelyFragment, type HumanLabel } from '../../shared/domain';
import { SAMPLING_ALGORITHM } from '../../shared/sampling';
import { locateSentences } from '../../shared/split/sentences';
import { createCore, dispatch, type Core, type CoreOptions } from '../../electron/core/index';
import { MemorySecretStore } from '../../electron/core/judges/secrets';
import { createLinkRegistry } from '../../electron/serve/links';
import type { ClaimLabelState, ClaimSet } from '../../shared/contract/claims';
import type { KeyFactLabelState, KeyFactSet } from '../../shared/contract/keyfacts';
import type { AlignmentState, ScaffoldVersion } from '../../shared/contract/scaffold';
import type { ScaffoldContent } from '../../shared/scaffold/domain';
import { createTestTransport, type TestTransport } from '../../renderer/testing/transport';

export interface SummarySeed {
  dataset?: string;
  /** Default `s<n>` for the n-th seed (1-based): its key is n too, as imported into a new project. */
  summaryId?: string;
  docId?: string;
  /** null: the document text is missing (as TofuEval and CoGenSumm import it). */
  document: string | null;
  sentences: string[];
  /** The default annotator's labels already stored, by sentence index. */
  labels?: Array<HumanLabel | null>;
  /** The benchmark's global label of the summary (1 faithful, 0 not); absent: none. */
  label?: 0 | 1;
}

export interface RendererCoreOptions {
  /** People besides the default annotator (annotators.ensure), in order. */
  people?: string[];
  /** Per summary key (the seed's place, 1-based): the claims of each sentence, imported. */
  claims?: Record<number, string[][]>;
  /** Per document id: its key facts, imported. */
  keyFacts?: Record<string, string[]>;
  /** Per document id: its Semantic Scaffold, imported. */
  scaffolds?: Record<string, ScaffoldContent>;
  /** Imported (read-only) label sets, as a benchmark's annotators arrive with its import. */
  imported?: string[];
  /** Imported label sets with their labels: per name, per summary key, labels by sentence index. */
  labelSets?: Record<string, Record<number, HumanLabel[]>>;
  /** Judges' predictions, imported: per judge, per summary key, hard labels (1 faithful, 0 not) by sentence index. */
  predictions?: Record<string, Record<number, Array<0 | 1>>>;
  /** The environment variables a judge or system may name for its key (the desktop host: any). */
  allowedKeyEnv?: string[];
  /** The host hands out annotator links (`loupe serve`); absent: links.* answer unsupported. */
  links?: boolean;
  /** The host starts with no project open (the start view); the seeds are then not imported. */
  noProject?: boolean;
}

/** What a test varies of the host: capabilities, and who calls (a lead, or an annotator link). */
export type HostSeed = Partial<
  Pick<HostInfo, 'host' | 'fileDialogs' | 'diskPaths' | 'canSwitchProjects' | 'role' | 'annotator' | 'keychain'>
>;

export interface RendererCore extends TestTransport {
  core: Core;
  /** The seeded summaries as annotation.load answers them (ids and offsets of the real core); of a load test, the first hundred. */
  summaries: AnnotationSummary[];
  /** The stored state of a unit for `annotator` (default: the host's annotator). */
  stateOf(unitId: number, annotator?: string): UnitLabelState;
  /** Summary keys whose reveal is recorded for `annotator`, ascending. */
  revealedKeys(annotator: string): number[];
  /** Whether the newest write of a unit through this transport was stored blind. */
  blindOf(unitId: number): boolean | undefined;
  /** One call through dispatch as the lead (to seed or read back in a test). */
  lead<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** One call through dispatch as an annotator's link (their edit becomes a proposal, as from their tab). */
  asAnnotator<M extends ApiMethod>(annotator: string, method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** An upload through imports.start as the lead, waited for (to add data mid-test). */
  upload(name: string, records: unknown[], as?: ApiInput<'imports.start'>['as']): Promise<void>;
  /** Claims and key facts read back through the contract. */
  accuracy: {
    claimVersions(key: number): Promise<ClaimSet[]>;
    keyFactVersions(docId: string): Promise<KeyFactSet[]>;
    /** The annotator's newest label on a claim of any version; undefined when never labeled. */
    claimLabel(annotator: string, claimId: number): Promise<ClaimLabelState | undefined>;
    keyFactLabel(annotator: string, key: number, keyFactId: number): Promise<KeyFactLabelState | undefined>;
  };
  /** Scaffolds and alignments read back through the contract. */
  scaffold: {
    versions(docId: string): Promise<ScaffoldVersion[]>;
    /** A person's newest alignment of an item of any version for one summary ("human:<name>"); undefined when never aligned. */
    alignmentOf(source: string, key: number, itemId: number): Promise<AlignmentState | undefined>;
  };
}

let changeSeq = 0;
/** A change event as the core's bus numbers it (for `RendererCore.change`). */
export function changeEvent(change: Pick<ChangeEvent, 'namespace' | 'what'> & Partial<ChangeEvent>): ChangeEvent {
  changeSeq += 1;
  return { seq: changeSeq, dataset: null, by: null, ...change };
}

const DEFAULT_ANNOTATOR = 'ann';
const LOADED_SUMMARIES = 100;
const EMPTY_STATE: UnitLabelState = { label: null, errorType: null, note: null };

const root = mkdtempSync(join(tmpdir(), 'loupe-renderer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const templates = new Map<string, Promise<string>>();
const open = new Set<Core>();
let made = 0;
afterEach(() => {
  for (const core of open) core.close();
  open.clear();
});

function coreAt(stateDir: string, info: HostSeed, options: RendererCoreOptions): Core {
  mkdirSync(stateDir, { recursive: true });
  const host = info.host ?? 'web';
  const links = options.links ? createLinkRegistry() : null;
  links?.setOrigin('http://127.0.0.1:4173');
  const coreOptions: CoreOptions = {
    Database,
    stateDir,
    demoDir: join(import.meta.dirname, '..', '..', 'demo'),
    host,
    fileDialogs: info.fileDialogs ?? false,
    canSwitchProjects: info.canSwitchProjects ?? false,
    // A test that plays the desktop host gets its capabilities unless it says otherwise.
    diskPaths: info.diskPaths ?? host === 'electron',
    annotator: info.annotator === undefined ? DEFAULT_ANNOTATOR : info.annotator,
    links,
    // The desktop keeps keys in the OS keychain (here in memory); `loupe serve` has none.
    secrets: (info.keychain ?? host === 'electron') ? new MemorySecretStore() : null,
    allowedKeyEnv: options.allowedKeyEnv ? new Set(options.allowedKeyEnv) : host === 'electron' ? 'any' : undefined,
    env: {},
  };
  return createCore(coreOptions);
}

async function through<M extends ApiMethod>(
  core: Core,
  method: M,
  input: ApiInput<M>,
  caller?: Caller,
): Promise<ApiOutput<M>> {
  const envelope = await dispatch(core.handlers, method, input, caller);
  if (!envelope.ok) throw new ApiError(envelope.error);
  return envelope.value as ApiOutput<M>;
}

/** The dataset of the seeds that name this document. */
function datasetOfDoc(seeds: SummarySeed[], docId: string): string {
  const at = seeds.findIndex((s, i) => rowOf(s, i).doc_id === docId);
  if (at === -1) throw new Error(`renderer-core: no seed has document ${docId}`);
  return rowOf(seeds[at]!, at).dataset;
}

/** One upload through imports.start, waited for. */
async function upload(
  core: Core,
  name: string,
  records: unknown[],
  as?: ApiInput<'imports.start'>['as'],
): Promise<void> {
  const base64 = Buffer.from(records.map((r) => JSON.stringify(r)).join('\n')).toString('base64');
  const { jobId } = await through(core, 'imports.start', {
    source: { type: 'upload', name, base64 },
    ...(as ? { as } : {}),
  });
  await untilJobEnds(core, jobId);
}

/** The seed's row in Loupe's summaries format (its key is its place, 1-based). */
function rowOf(s: SummarySeed, i: number) {
  return {
    dataset: s.dataset ?? 'demo',
    doc_id: s.docId ?? `d${i + 1}`,
    document: s.document,
    summary_id: s.summaryId ?? `s${i + 1}`,
    summary: s.sentences.join(' '),
    sentences: s.sentences,
    ...(s.label === undefined ? {} : { label: s.label }),
  };
}

/**
 * Imports the seeds in order: uploads of Loupe's summaries format, except a missing document (no
 * upload format leaves one out of a summary of its own without other labels), which goes to the
 * repository as the TofuEval importer stores it. Then one sample batch per dataset in the seeds'
 * order (a draw is a seeded shuffle, and the tests read the queue in the order they list it),
 * then the default annotator's labels.
 */
async function seed(core: Core, seeds: SummarySeed[], options: RendererCoreOptions): Promise<void> {
  const repo = core.repository();
  const direct = (s: SummarySeed) => s.document === null;
  for (let i = 0; i < seeds.length;) {
    let end = i;
    while (end < seeds.length && direct(seeds[end]!) === direct(seeds[i]!)) end += 1;
    const rows = seeds.slice(i, end).map((s, at) => rowOf(s, i + at));
    if (!direct(seeds[i]!)) {
      await upload(core, 'summaries.jsonl', rows);
    } else {
      repo.transaction(() => {
        const importId = repo.recordImport({
          kind: 'summaries',
          source: 'missing.jsonl',
          files: ['missing.jsonl'],
          contentHash: `missing-${i}`,
          summaries: rows.length,
          labels: 0,
        });
        for (const row of rows) {
          const located = locateSentences(row.summary, row.sentences)!;
          const units = row.sentences.map((text, idx) => ({
            idx,
            text,
            start: located[idx]!.start,
            end: located[idx]!.end,
            fragment: isLikelyFragment(text),
          }));
          repo.insertSummary(
            {
              dataset: row.dataset,
              docId: row.doc_id,
              document: row.document,
              summaryId: row.summary_id,
              summary: row.summary,
              label: row.label ?? null,
              meta: {},
              units,
              splitter: { name: 'given', version: 'missing.jsonl' },
            },
            importId,
          );
        }
      });
    }
    i = end;
  }
  const datasets = [...new Set(seeds.map((s) => s.dataset ?? 'demo'))];
  repo.transaction(() => {
    for (const dataset of datasets) {
      const keys = seeds.flatMap((s, i) => ((s.dataset ?? 'demo') === dataset ? [i + 1] : []));
      repo.insertSampleBatch({
        datasetId: repo.datasetId(dataset)!,
        seed: 0,
        requested: keys.length,
        annotatorId: null,
        algorithm: SAMPLING_ALGORITHM,
        keys,
      });
    }
  });
  const claims = Object.entries(options.claims ?? {}).map(([key, perSentence]) => {
    const row = rowOf(seeds[Number(key) - 1]!, Number(key) - 1);
    return {
      type: 'claims',
      dataset: row.dataset,
      summary_id: row.summary_id,
      claims: perSentence.flatMap((texts, index) => texts.map((text) => ({ sentence_index: index, text }))),
    };
  });
  const keyFacts = Object.entries(options.keyFacts ?? {}).map(([docId, facts]) => ({
    type: 'key_facts',
    dataset: datasetOfDoc(seeds, docId),
    doc_id: docId,
    facts,
  }));
  if (claims.length + keyFacts.length > 0) await upload(core, 'claims.jsonl', [...keyFacts, ...claims], 'accuracy');
  const scaffolds = Object.entries(options.scaffolds ?? {}).map(([docId, content]) => ({
    dataset: datasetOfDoc(seeds, docId),
    doc_id: docId,
    ...content,
  }));
  if (scaffolds.length > 0) await upload(core, 'scaffold.jsonl', scaffolds, 'scaffold');
  /** One record per sentence of `perKey`'s summaries (keys are seed places), `fields` naming its value. */
  const perSentence = <T>(perKey: Record<number, T[]>, fields: (value: T) => Record<string, unknown>) =>
    Object.entries(perKey).flatMap(([key, values]) => {
      const row = rowOf(seeds[Number(key) - 1]!, Number(key) - 1);
      return values.map((value, index) => ({
        dataset: row.dataset,
        summary_id: row.summary_id,
        sentence_index: index,
        ...fields(value),
      }));
    });
  const predictions = Object.entries(options.predictions ?? {}).flatMap(([judge, perKey]) =>
    perSentence(perKey, (hard) => ({ judge, hard })),
  );
  if (predictions.length > 0) await upload(core, 'predictions.jsonl', predictions, 'predictions');
  const setLabels = Object.entries(options.labelSets ?? {}).flatMap(([annotator, perKey]) =>
    perSentence(perKey, (label) => ({ annotator, label })),
  );
  if (setLabels.length > 0) await upload(core, 'labels.jsonl', setLabels, 'labels');
  for (const name of [DEFAULT_ANNOTATOR, ...(options.people ?? [])]) await through(core, 'annotators.ensure', { name });
  // No import brings a label set without its labels; the kind is what the views and rules read.
  for (const name of options.imported ?? []) repo.ensureAnnotator(name, 'imported');
  for (const [i, s] of seeds.entries()) await recordLabels(core, i + 1, DEFAULT_ANNOTATOR, s.labels ?? []);
}

/** A person's labels on one summary through annotation.record, by sentence index (null: none given). */
async function recordLabels(
  core: Core,
  key: number,
  annotator: string,
  labels: Array<HumanLabel | null>,
): Promise<void> {
  if (!labels.some((l) => l !== null)) return;
  const loaded = await through(core, 'annotation.load', { key, annotator });
  for (const [index, label] of labels.entries()) {
    if (label === null || label === undefined) continue;
    await through(core, 'annotation.record', {
      unitId: loaded.units[index]!.id,
      annotator,
      state: { label, errorType: null, note: null },
      // Four seconds and a bit a decision, as a person takes (annotators.activity shows the median).
      timeSpentMs: 4200,
      cause: 'label',
    });
  }
}

async function untilJobEnds(core: Core, jobId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await through(core, 'jobs.get', { jobId });
    if (job.state === 'failed') throw new Error(`seed import failed: ${JSON.stringify(job)}`);
    if (job.state !== 'running') return;
    if (Date.now() > deadline) throw new Error('seed import did not finish');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The seeded project file, built once per distinct seed in this test file. */
function template(seeds: SummarySeed[], options: RendererCoreOptions): Promise<string> {
  const id = JSON.stringify({
    seeds,
    people: options.people ?? [],
    imported: options.imported ?? [],
    claims: options.claims,
    keyFacts: options.keyFacts,
    scaffolds: options.scaffolds,
    labelSets: options.labelSets,
    predictions: options.predictions,
  });
  let built = templates.get(id);
  if (!built) {
    built = (async () => {
      const dir = join(root, `template-${templates.size}`);
      const core = coreAt(dir, {}, options);
      const path = join(dir, 'test.loupe');
      core.createProject(path);
      try {
        await seed(core, seeds, options);
      } finally {
        core.close();
      }
      return path;
    })();
    templates.set(id, built);
  }
  return built;
}

/**
 * The seeded project copied elsewhere on disk as `<name>.loupe`, as an annotator sends their copy
 * back to be merged: each person of `labels` labeled it there (per summary key, by sentence
 * index). Closed when this returns; the path is the file.
 */
export async function projectCopy(
  name: string,
  seeds: SummarySeed[],
  labels: Record<string, Record<number, Array<HumanLabel | null>>> = {},
  options: RendererCoreOptions = {},
): Promise<string> {
  const dir = join(root, `copy-${made++}`);
  const core = coreAt(dir, {}, options);
  const path = join(dir, `${name}.loupe`);
  copyFileSync(await template(seeds, options), path);
  core.openProject(path);
  try {
    for (const [annotator, byKey] of Object.entries(labels)) {
      await through(core, 'annotators.ensure', { name: annotator });
      for (const [key, perSentence] of Object.entries(byKey))
        await recordLabels(core, Number(key), annotator, perSentence);
    }
  } finally {
    core.close();
  }
  return path;
}

/**
 * A real core on a copy of the seeded project, and the transport the App gets. `info` says which
 * host it plays and who calls: `{ role: 'annotator', annotator }` calls as that annotator's link.
 */
export async function createRendererCore(
  seeds: SummarySeed[],
  info: HostSeed = {},
  options: RendererCoreOptions = {},
): Promise<RendererCore> {
  const dir = join(root, `core-${made++}`);
  const core = coreAt(dir, info, options);
  open.add(core);
  if (!options.noProject) {
    const path = join(dir, 'test.loupe');
    copyFileSync(await template(seeds, options), path);
    core.openProject(path);
  }

  const annotator = info.annotator === undefined ? DEFAULT_ANNOTATOR : info.annotator;
  const caller: Caller = info.role === 'annotator' && annotator ? { role: 'annotator', annotator } : { role: 'lead' };
  const transport = createTestTransport((method, input) => through(core, method, input, caller), info.host ?? 'web');
  const lead = <M extends ApiMethod>(method: M, input: ApiInput<M>) => through(core, method, input);

  const summaries: AnnotationSummary[] = [];
  for (let key = 1; !options.noProject && key <= Math.min(seeds.length, LOADED_SUMMARIES); key += 1)
    summaries.push(await lead('annotation.load', { key, annotator: DEFAULT_ANNOTATOR }));

  // The event ids the transport's annotation.record calls returned, newest per unit.
  const newestEvent = new Map<number, number>();
  const recorded = transport.bridge.call.bind(transport.bridge);
  transport.bridge.call = async (method, input) => {
    const answer = await recorded(method, input);
    if (method === 'annotation.record') {
      const written = answer as ApiOutput<'annotation.record'>;
      newestEvent.set(written.unitId, written.eventId);
    }
    return answer;
  };

  const annotatorId = (name: string) => core.repository().annotatorId(name);
  const keyOfDoc = (docId: string) => {
    const at = seeds.findIndex((s, i) => rowOf(s, i).doc_id === docId);
    if (at === -1) throw new Error(`renderer-core: no seed has document ${docId}`);
    return at + 1;
  };
  // Labels are read by item id from the repository: they stay on the version they were given on,
  // which the blind loads (current version only) no longer show.
  const idOf = (name: string) => annotatorId(name) ?? -1;
  const accuracy: RendererCore['accuracy'] = {
    claimVersions: (key) => lead('claims.versions', { key }),
    async keyFactVersions(docId) {
      const { documentKey } = await lead('keyfacts.load', { key: keyOfDoc(docId), annotator: DEFAULT_ANNOTATOR });
      return lead('keyfacts.versions', { documentKey });
    },
    async claimLabel(name, claimId) {
      for (let key = 1; key <= seeds.length; key += 1) {
        const set = (await lead('claims.versions', { key })).find((v) => v.claims.some((c) => c.id === claimId));
        if (set) return core.repository().itemLabels.currentClaimStates(set.setId, idOf(name)).get(claimId);
      }
      return undefined;
    },
    async keyFactLabel(name, key, keyFactId) {
      const set = (await accuracy.keyFactVersions(rowOf(seeds[key - 1]!, key - 1).doc_id)).find((v) =>
        v.facts.some((f) => f.id === keyFactId),
      );
      return set
        ? core.repository().itemLabels.currentKeyFactStates(set.setId, key, idOf(name)).get(keyFactId)
        : undefined;
    },
  };
  const scaffold: RendererCore['scaffold'] = {
    async versions(docId) {
      const { documentKey } = await lead('scaffold.load', { key: keyOfDoc(docId), annotator: DEFAULT_ANNOTATOR });
      return lead('scaffold.versions', { documentKey });
    },
    async alignmentOf(source, key, itemId) {
      const repo = core.repository();
      const item = repo.scaffold.itemInfo(itemId);
      return item
        ? repo.scaffold.annotatorAlignments(item.scaffoldId, key, idOf(source.replace(/^human:/, ''))).get(itemId)
        : undefined;
    },
  };
  return {
    accuracy,
    scaffold,
    upload: (name, records, as) => upload(core, name, records, as),
    ...transport,
    // What the host passes on: the event as this caller's role may hear it (or nothing).
    change(event) {
      const heard = changeFor(event, caller);
      if (heard) transport.change(heard);
    },
    core,
    summaries,
    lead,
    asAnnotator: (name, method, input) => through(core, method, input, { role: 'annotator', annotator: name }),
    stateOf(unitId, name = annotator ?? DEFAULT_ANNOTATOR) {
      const repo = core.repository();
      const key = repo.unitSummaryKey(unitId);
      const id = annotatorId(name);
      if (key === null || id === null) return EMPTY_STATE;
      return repo.currentStates(key, id, 'annotation').get(unitId) ?? EMPTY_STATE;
    },
    revealedKeys(name) {
      const id = annotatorId(name);
      return id === null ? [] : [...core.repository().revealedSummaries(id)].sort((a, b) => a - b);
    },
    blindOf(unitId) {
      const eventId = newestEvent.get(unitId);
      return eventId === undefined ? undefined : core.repository().eventBlind(eventId);
    },
  };
}
