/**
 * The accuracy methods (claims.*, keyfacts.*, systems.*, accuracy.*, shared/contract/accuracy.ts)
 * of the renderer's test double, on the fake core's summaries. Inputs arrive already parsed by
 * the contract and role-checked (fakeCore.ts), as in dispatch; what is left here is what a handler
 * decides: versions with new ids on every edit (labels stay on the ids they were given on), blind
 * loads (only the caller's own labels), conflicts on a stale version, ids that must belong to the
 * summary. Not imported by the app (not in the bundle).
 */
import type { AnnotationSummary, ApiMethod, ApiOutput, ApiParsedInput } from '../../shared/api';
import type { AccuracyPlan, AccuracyRunStatus, AccuracyTask, AccuracyTaskInfo } from '../../shared/contract/accuracy';
import type { ClaimLabelState, ClaimSet } from '../../shared/contract/claims';
import type { KeyFactLabelState, KeyFactSet } from '../../shared/contract/keyfacts';
import type { SystemInfo } from '../../shared/contract/systems';
import { ApiError } from '../api/errors';

export type AccuracyMethod = Extract<
  ApiMethod,
  `claims.${string}` | `keyfacts.${string}` | `systems.${string}` | `accuracy.${string}`
>;
export type AccuracyHandlers = { [M in AccuracyMethod]: (input: ApiParsedInput<M>) => ApiOutput<M> };

export interface FakeAccuracySpec {
  /** Per summary key: the claims of each sentence (an imported first version). */
  claims?: Record<number, string[][]>;
  /** Per document id: its key facts (an imported first version). */
  keyFacts?: Record<string, string[]>;
}

export interface FakeAccuracy {
  handlers: AccuracyHandlers;
  /** Every version of a summary's claims, oldest first. */
  claimVersions(key: number): ClaimSet[];
  keyFactVersions(docId: string): KeyFactSet[];
  claimLabel(annotator: string, claimId: number): ClaimLabelState | undefined;
  keyFactLabel(annotator: string, key: number, keyFactId: number): KeyFactLabelState | undefined;
  /** Stores another person's label (to check that loads stay blind). */
  seedClaimLabel(annotator: string, claimId: number, state: ClaimLabelState): void;
  runs: AccuracyRunStatus[];
}

const EMPTY_CLAIM: ClaimLabelState = { label: null, errorType: null, note: null };
const EMPTY_FACT: KeyFactLabelState = { label: null, conveyedBy: { claims: [], sentences: [] }, note: null };
const AT = '2026-11-05T10:00:00.000Z';

const TASKS: AccuracyTaskInfo[] = [
  task(
    'claim_decomposition',
    'sentence',
    'Split the sentence into atomic, standalone claims.\n\nSentence: {sentence}',
    ['sentence'],
  ),
  task('keyfact_extraction', 'document', 'List the key facts of the document.\n\nDocument: {document}', ['document']),
  task('claim_verdict', 'claim', 'Document: {document}\n\nIs this claim supported by the document? Claim: {claim}', [
    'document',
    'claim',
  ]),
  task(
    'keyfact_alignment',
    'summary',
    'Key facts: {key_facts}\n\nSummary lines: {lines}\n\nWhich key facts does the summary convey?',
    ['key_facts', 'lines'],
  ),
  task(
    'keyfact_alignment_per_fact',
    'key fact',
    'Claims: {claims}\n\nIs this key fact conveyed? Key fact: {key_fact}',
    ['claims', 'key_fact'],
  ),
  task('summary_generation', 'document', 'Summarize the following document.\n\n{document}', ['document']),
];

function task(name: AccuracyTask, itemNoun: string, template: string, placeholders: string[]): AccuracyTaskInfo {
  return {
    task: name,
    version: 1,
    description: `The ${name.replace(/_/g, ' ')} task.`,
    template,
    placeholders,
    itemNoun,
  };
}

/** A stand-in decomposition: a sentence split at commas and "and". */
function decompose(sentence: string): string[] {
  const parts = sentence
    .replace(/[.!?]+$/, '')
    .split(/,\s*|\s+and\s+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  return parts.length > 0 ? parts.map((part) => `${part}.`) : [sentence];
}

export function createFakeAccuracy(
  summaries: AnnotationSummary[],
  spec: FakeAccuracySpec,
  context: {
    knownJudge: (name: string) => boolean;
    /** An annotator link's edit is a proposal (as the core's editSet). */ proposing: () => boolean;
  },
): FakeAccuracy {
  let nextId = 5_000;
  let nextProposal = 1;
  /** An annotator link's edit: the current version, unchanged, with the pending proposal it became. */
  const proposed = <T>(current: T | undefined, what: string): T & { proposal: { id: number; status: 'pending' } } => {
    if (!current)
      throw new ApiError({
        code: 'conflict',
        message: `${what} have no version yet: the lead makes the first one (extract or import it).`,
      });
    return { ...structuredClone(current), proposal: { id: nextProposal++, status: 'pending' } };
  };
  let nextEvent = 1;
  const claimSets = new Map<number, ClaimSet[]>();
  const factSets = new Map<number, KeyFactSet[]>();
  const claimLabels = new Map<string, ClaimLabelState>();
  const factLabels = new Map<string, KeyFactLabelState>();
  const systems = new Map<string, SystemInfo>();
  const runs: AccuracyRunStatus[] = [];

  const docIds = [...new Set(summaries.map((s) => s.docId))];
  const documentKeyOf = (docId: string): number => docIds.indexOf(docId) + 1;
  const docIdOf = (documentKey: number): string | undefined => docIds[documentKey - 1];
  const summaryOf = (key: number): AnnotationSummary => {
    const summary = summaries.find((s) => s.key === key);
    if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}.` });
    return summary;
  };
  const currentClaims = (key: number): ClaimSet | undefined => claimSets.get(key)?.at(-1);
  const currentFacts = (documentKey: number): KeyFactSet | undefined => factSets.get(documentKey)?.at(-1);
  const claimKey = (annotator: string, claimId: number) => `${annotator}\u0000${claimId}`;
  const factKey = (annotator: string, key: number, factId: number) => `${annotator}\u0000${key}\u0000${factId}`;

  function addClaimSet(
    key: number,
    claims: Array<{ sentenceUnitId: number; text: string; from: number[] }>,
    source: ClaimSet['source'],
    by: string,
    note: string | null,
  ): ClaimSet {
    const summary = summaryOf(key);
    const versions = claimSets.get(key) ?? [];
    const set: ClaimSet = {
      setId: nextId++,
      key,
      version: versions.length + 1,
      source,
      decomposer: by,
      decomposerVersion: '1',
      basedOnVersion: versions.at(-1)?.version ?? null,
      createdBy: source === 'person' ? by.replace(/^person:/, '') : null,
      createdAt: AT,
      note,
      labelEvents: 0,
      // As the core numbers them: the claim's place in the whole set, not under its sentence.
      claims: claims.map((claim, index) => {
        const unit = summary.units.find((u) => u.id === claim.sentenceUnitId)!;
        return {
          id: nextId++,
          sentenceUnitId: unit.id,
          sentenceIndex: unit.index,
          index,
          text: claim.text,
          from: claim.from,
        };
      }),
    };
    claimSets.set(key, [...versions, set]);
    return set;
  }

  function addFactSet(
    documentKey: number,
    facts: Array<{ text: string; from: number[] }>,
    source: KeyFactSet['source'],
    by: string,
    note: string | null,
  ): KeyFactSet {
    const versions = factSets.get(documentKey) ?? [];
    const set: KeyFactSet = {
      setId: nextId++,
      documentKey,
      version: versions.length + 1,
      source,
      extractor: by,
      extractorVersion: '1',
      basedOnVersion: versions.at(-1)?.version ?? null,
      createdBy: source === 'person' ? by.replace(/^person:/, '') : null,
      createdAt: AT,
      note,
      labelEvents: 0,
      facts: facts.map((fact, index) => ({ id: nextId++, index, text: fact.text, from: fact.from })),
    };
    factSets.set(documentKey, [...versions, set]);
    return set;
  }

  for (const [key, perSentence] of Object.entries(spec.claims ?? {})) {
    const summary = summaryOf(Number(key));
    const claims = perSentence.flatMap((texts, index) =>
      texts.map((text) => ({ sentenceUnitId: summary.units[index]!.id, text, from: [] })),
    );
    addClaimSet(summary.key, claims, 'imported', 'import:claims.jsonl', null);
  }
  for (const [docId, facts] of Object.entries(spec.keyFacts ?? {})) {
    addFactSet(
      documentKeyOf(docId),
      facts.map((text) => ({ text, from: [] })),
      'imported',
      'import:keyfacts.jsonl',
      null,
    );
  }

  /** Annotator-side calls name their annotator; the role check already matched it to the link. */
  function claimOwner(claimId: number): { key: number; set: ClaimSet } {
    for (const [key, versions] of claimSets) {
      for (const set of versions) if (set.claims.some((c) => c.id === claimId)) return { key, set };
    }
    throw new ApiError({ code: 'not_found', message: `No claim ${claimId}.` });
  }

  function sentencesOf(summary: AnnotationSummary) {
    return summary.units.map((u) => ({ unitId: u.id, index: u.index, text: u.text }));
  }

  function counts(
    kind: AccuracyTask,
    dataset: string | undefined,
  ): { selection: number; done: number; missing: number; notes: string[] } {
    const chosen = summaries.filter((s) => dataset === undefined || s.dataset === dataset);
    const docs = [...new Set(chosen.map((s) => s.docId))];
    switch (kind) {
      case 'claim_decomposition': {
        const selection = chosen.reduce((n, s) => n + s.units.length, 0);
        const done = chosen.filter((s) => currentClaims(s.key)).reduce((n, s) => n + s.units.length, 0);
        return { selection, done, missing: 0, notes: [] };
      }
      case 'keyfact_extraction':
      case 'scaffold_extraction':
      case 'summary_generation': {
        const done = kind === 'keyfact_extraction' ? docs.filter((d) => currentFacts(documentKeyOf(d))).length : 0;
        return { selection: docs.length, done, missing: 0, notes: [] };
      }
      case 'claim_verdict': {
        const without = chosen.filter((s) => !currentClaims(s.key)).length;
        const selection = chosen.reduce((n, s) => n + (currentClaims(s.key)?.claims.length ?? 0), 0);
        return {
          selection,
          done: 0,
          missing: without,
          notes: without > 0 ? [`${without} summaries have no claims yet (decompose or import them).`] : [],
        };
      }
      case 'keyfact_alignment':
      case 'keyfact_alignment_per_fact': {
        const without = chosen.filter((s) => !currentFacts(documentKeyOf(s.docId))).length;
        const withFacts = chosen.filter((s) => currentFacts(documentKeyOf(s.docId)));
        const selection =
          kind === 'keyfact_alignment'
            ? withFacts.length
            : withFacts.reduce((n, s) => n + currentFacts(documentKeyOf(s.docId))!.facts.length, 0);
        return {
          selection,
          done: 0,
          missing: without,
          notes: without > 0 ? [`${without} summaries have no key facts yet.`] : [],
        };
      }
      case 'scaffold_alignment':
      case 'direct_score':
        return { selection: chosen.length, done: 0, missing: 0, notes: [] };
    }
  }

  function runner(input: ApiParsedInput<'accuracy.plan'>): string {
    if (input.task === 'summary_generation') {
      if (!systems.has(input.system!))
        throw new ApiError({ code: 'not_found', message: `No system "${input.system}" (systems.add).` });
      return input.system!;
    }
    if (!context.knownJudge(input.judge!))
      throw new ApiError({ code: 'not_found', message: `No judge "${input.judge}" (judges.add).` });
    return input.judge!;
  }

  function plan(input: ApiParsedInput<'accuracy.plan'>): AccuracyPlan {
    const model = runner(input);
    const c = counts(input.task, input.dataset);
    return {
      task: input.task,
      model,
      configHash: `hash-${model}`,
      dataset: input.dataset ?? null,
      selection: c.selection,
      done: c.done,
      requests: c.selection - c.done,
      promptTokens: 0,
      baseUrls: [],
      missing: c.missing,
      notes: c.notes,
    };
  }

  /** What a finished run leaves behind, for the tasks whose outputs the annotators see. */
  function applyRun(run: AccuracyRunStatus): void {
    const chosen = summaries.filter((s) => run.dataset === null || s.dataset === run.dataset);
    if (run.task === 'claim_decomposition') {
      for (const summary of chosen) {
        if (currentClaims(summary.key)) continue;
        const claims = summary.units.flatMap((u) =>
          decompose(u.text).map((text) => ({ sentenceUnitId: u.id, text, from: [] })),
        );
        addClaimSet(summary.key, claims, 'model', `task:claim_decomposition@${run.configHash}`, null);
      }
    }
    if (run.task === 'keyfact_extraction') {
      for (const docId of new Set(chosen.map((s) => s.docId))) {
        const documentKey = documentKeyOf(docId);
        const document = chosen.find((s) => s.docId === docId)?.document;
        if (currentFacts(documentKey) || !document) continue;
        const facts = document
          .split(/(?<=[.!?])\s+/)
          .filter(Boolean)
          .map((text) => ({ text, from: [] }));
        addFactSet(documentKey, facts, 'model', `task:keyfact_extraction@${run.configHash}`, null);
      }
    }
  }

  function findRun(runId: string): AccuracyRunStatus {
    const run = runs.find((r) => r.runId === runId);
    if (!run) throw new ApiError({ code: 'not_found', message: `No run ${runId}.` });
    return run;
  }

  const handlers: AccuracyHandlers = {
    'claims.list': ({ dataset }) =>
      summaries
        .filter((s) => dataset === undefined || s.dataset === dataset)
        .map((s) => {
          const current = currentClaims(s.key);
          return {
            key: s.key,
            dataset: s.dataset,
            summaryId: s.summaryId,
            docId: s.docId,
            system: null,
            sentences: s.units.length,
            currentVersion: current?.version ?? null,
            versions: claimSets.get(s.key)?.length ?? 0,
            claims: current?.claims.length ?? 0,
            source: current?.source ?? null,
            decomposer: current?.decomposer ?? null,
          };
        }),
    'claims.versions': ({ key }) => structuredClone(claimSets.get(summaryOf(key).key) ?? []),
    'claims.load': ({ key, annotator }) => {
      const summary = summaryOf(key);
      const current = currentClaims(key);
      return {
        key,
        summaryId: summary.summaryId,
        setId: current?.setId ?? null,
        version: current?.version ?? null,
        sentences: summary.units.map((u) => ({
          unitId: u.id,
          index: u.index,
          text: u.text,
          claims: (current?.claims ?? [])
            .filter((c) => c.sentenceUnitId === u.id)
            .map((c) => ({
              id: c.id,
              index: c.index,
              text: c.text,
              state: structuredClone(claimLabels.get(claimKey(annotator, c.id)) ?? EMPTY_CLAIM),
            })),
        })),
      };
    },
    'claims.record': ({ claimId, annotator, state }) => {
      const { key, set } = claimOwner(claimId);
      if (currentClaims(key)?.setId !== set.setId) {
        throw new ApiError({
          code: 'conflict',
          message: `Claim ${claimId} belongs to version ${set.version}, no longer the current one.`,
        });
      }
      claimLabels.set(claimKey(annotator, claimId), structuredClone(state));
      set.labelEvents += 1;
      return { eventId: nextEvent++, claimId, state: structuredClone(state) };
    },
    'claims.edit': ({ key, annotator, basedOnVersion, claims, note }) => {
      const summary = summaryOf(key);
      const current = currentClaims(key);
      if ((current?.version ?? null) !== basedOnVersion) {
        throw new ApiError({
          code: 'conflict',
          message: `The claims of summary ${summary.summaryId} are at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload them.`,
        });
      }
      const known = new Set(current?.claims.map((c) => c.id) ?? []);
      for (const claim of claims) {
        if (!summary.units.some((u) => u.id === claim.sentenceUnitId))
          throw new ApiError({
            code: 'invalid_input',
            message: `Sentence ${claim.sentenceUnitId} is not in summary ${summary.summaryId}.`,
          });
        for (const from of claim.from)
          if (!known.has(from))
            throw new ApiError({
              code: 'invalid_input',
              message: `Claim ${from} is not in version ${basedOnVersion}.`,
            });
      }
      if (context.proposing()) return proposed(current, `The claims of summary ${summary.summaryId}`);
      return structuredClone(addClaimSet(key, claims, 'person', `person:${annotator}`, note ?? null));
    },
    'keyfacts.list': ({ dataset }) =>
      docIds
        .filter((docId) => dataset === undefined || summaries.some((s) => s.docId === docId && s.dataset === dataset))
        .map((docId) => {
          const documentKey = documentKeyOf(docId);
          const current = currentFacts(documentKey);
          return {
            documentKey,
            dataset: summaries.find((s) => s.docId === docId)!.dataset,
            docId,
            summaries: summaries.filter((s) => s.docId === docId).length,
            currentVersion: current?.version ?? null,
            versions: factSets.get(documentKey)?.length ?? 0,
            facts: current?.facts.length ?? 0,
            source: current?.source ?? null,
            extractor: current?.extractor ?? null,
          };
        }),
    'keyfacts.versions': ({ documentKey }) => {
      if (!docIdOf(documentKey)) throw new ApiError({ code: 'not_found', message: `No document ${documentKey}.` });
      return structuredClone(factSets.get(documentKey) ?? []);
    },
    'keyfacts.load': ({ key, annotator }) => {
      const summary = summaryOf(key);
      const documentKey = documentKeyOf(summary.docId);
      const current = currentFacts(documentKey);
      const claims = currentClaims(key)?.claims ?? [];
      return {
        key,
        summaryId: summary.summaryId,
        documentKey,
        docId: summary.docId,
        setId: current?.setId ?? null,
        version: current?.version ?? null,
        facts: (current?.facts ?? []).map((f) => ({
          id: f.id,
          index: f.index,
          text: f.text,
          state: structuredClone(factLabels.get(factKey(annotator, key, f.id)) ?? EMPTY_FACT),
        })),
        sentences: sentencesOf(summary),
        claims: claims.map((c) => ({ id: c.id, sentenceUnitId: c.sentenceUnitId, text: c.text })),
      };
    },
    'keyfacts.record': ({ keyFactId, key, annotator, state }) => {
      const summary = summaryOf(key);
      const current = currentFacts(documentKeyOf(summary.docId));
      if (!current?.facts.some((f) => f.id === keyFactId)) {
        throw new ApiError({
          code: 'conflict',
          message: `Key fact ${keyFactId} is not in the current key facts of ${summary.docId}.`,
        });
      }
      const claimIds = new Set(currentClaims(key)?.claims.map((c) => c.id) ?? []);
      for (const id of state.conveyedBy.claims)
        if (!claimIds.has(id))
          throw new ApiError({
            code: 'invalid_input',
            message: `Claim ${id} is not a current claim of summary ${summary.summaryId}.`,
          });
      for (const id of state.conveyedBy.sentences)
        if (!summary.units.some((u) => u.id === id))
          throw new ApiError({
            code: 'invalid_input',
            message: `Sentence ${id} is not in summary ${summary.summaryId}.`,
          });
      factLabels.set(factKey(annotator, key, keyFactId), structuredClone(state));
      current.labelEvents += 1;
      return { eventId: nextEvent++, keyFactId, key, state: structuredClone(state) };
    },
    'keyfacts.edit': ({ documentKey, annotator, basedOnVersion, facts, note }) => {
      const docId = docIdOf(documentKey);
      if (!docId) throw new ApiError({ code: 'not_found', message: `No document ${documentKey}.` });
      const current = currentFacts(documentKey);
      if ((current?.version ?? null) !== basedOnVersion) {
        throw new ApiError({
          code: 'conflict',
          message: `The key facts of ${docId} are at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload them.`,
        });
      }
      const known = new Set(current?.facts.map((f) => f.id) ?? []);
      for (const fact of facts)
        for (const from of fact.from)
          if (!known.has(from))
            throw new ApiError({
              code: 'invalid_input',
              message: `Key fact ${from} is not in version ${basedOnVersion}.`,
            });
      if (context.proposing()) return proposed(current, `The key facts of ${docId}`);
      return structuredClone(addFactSet(documentKey, facts, 'person', `person:${annotator}`, note ?? null));
    },
    'systems.list': () => structuredClone([...systems.values()]),
    'systems.add': ({ name, config, apiKey }) => {
      if (systems.has(name)) throw new ApiError({ code: 'conflict', message: `A system named "${name}" exists.` });
      const info: SystemInfo = {
        name,
        kind: 'endpoint',
        config,
        configHash: `hash-${name}-${config.model}`,
        documents: 0,
        ok: 0,
        failed: 0,
        failures: [],
        updatedAt: AT,
        keySource: typeof apiKey === 'string' ? 'stored' : config.apiKeyEnv ? 'env' : 'none',
      };
      systems.set(name, info);
      return structuredClone(info);
    },
    'systems.remove': ({ name }) => ({ removed: systems.delete(name) }),
    'accuracy.tasks': () => structuredClone(TASKS),
    'accuracy.preview': (input) => {
      const model = runner(input);
      const template = TASKS.find((t) => t.task === input.task)!.template;
      const summary = summaries.find((s) => input.dataset === undefined || s.dataset === input.dataset);
      if (!summary) return { task: input.task, configHash: `hash-${model}`, item: null, prompt: null, body: null };
      const prompt = template
        .replace('{sentence}', summary.units[0]?.text ?? '')
        .replace('{document}', summary.document ?? '');
      return {
        task: input.task,
        configHash: `hash-${model}`,
        item: `summary ${summary.summaryId}`,
        prompt,
        body: { model, messages: [{ role: 'user', content: prompt }] },
      };
    },
    'accuracy.plan': (input) => plan(input),
    'accuracy.start': (input) => {
      const p = plan(input);
      const run: AccuracyRunStatus = {
        runId: `arun-${runs.length + 1}`,
        task: p.task,
        model: p.model,
        configHash: p.configHash,
        dataset: p.dataset,
        state: 'running',
        pauseReason: null,
        message: `Running ${p.task}…`,
        done: p.done,
        total: p.selection,
        cached: 0,
        reusedParseErrors: 0,
        requests: 0,
        dropped: 0,
        ok: 0,
        parseErrors: 0,
        failed: 0,
        failuresInARow: 0,
        missing: p.missing,
        ratePerSecond: null,
        etaSeconds: null,
        tokens: { prompt: 0, completion: 0 },
        errors: [],
        notes: p.notes,
        itemNoun: TASKS.find((t) => t.task === p.task)?.itemNoun ?? 'item',
        startedAt: AT,
        updatedAt: AT,
        finishedAt: null,
      };
      runs.push(run);
      return structuredClone(run);
    },
    /** One status call finishes a running run (a test sees "running", then "done"). */
    'accuracy.status': ({ runId }) => {
      const run = findRun(runId);
      if (run.state === 'running') {
        run.requests = run.total - run.done;
        run.ok = run.requests;
        run.done = run.total;
        run.state = 'done';
        run.message = 'Done.';
        run.finishedAt = AT;
        applyRun(run);
      }
      return structuredClone(run);
    },
    'accuracy.pause': ({ runId }) => {
      const run = findRun(runId);
      if (run.state === 'running') Object.assign(run, { state: 'paused', pauseReason: 'user', message: 'Paused.' });
      return structuredClone(run);
    },
    'accuracy.resume': ({ runId }) => {
      const run = findRun(runId);
      if (run.state === 'paused') Object.assign(run, { state: 'running', pauseReason: null, message: 'Running…' });
      return structuredClone(run);
    },
    'accuracy.cancel': ({ runId }) => {
      const run = findRun(runId);
      if (run.state === 'running' || run.state === 'paused')
        Object.assign(run, { state: 'cancelled', pauseReason: null, message: 'Cancelled.', finishedAt: AT });
      return structuredClone(run);
    },
    'accuracy.runs': () => structuredClone(runs),
    // Batch files: the plan's requests as lines (no answers are applied; tests override the import).
    'accuracy.batchExport': ({ run, path }) => {
      const p = plan(run);
      const lines = Array.from({ length: p.requests }, (_, i) =>
        JSON.stringify({
          custom_id: `loupe:${p.task}:${'0'.repeat(64)}:item:${i}`,
          method: 'POST',
          url: '/v1/chat/completions',
          body: {},
        }),
      );
      return {
        ...p,
        cached: 0,
        path: path ?? null,
        fileName: `${p.task}-${p.model}-requests.jsonl`,
        content: path === undefined ? lines.map((l) => `${l}\n`).join('') : null,
      };
    },
    'accuracy.batchImport': ({ run }) => {
      const p = plan(run);
      return {
        task: p.task,
        model: p.model,
        configHash: p.configHash,
        lines: 0,
        answered: 0,
        parseErrors: 0,
        failed: 0,
        unknown: 0,
        duplicates: 0,
        invalid: 0,
        shared: 0,
        stillToDo: p.requests,
        problems: { unknown: [], failed: [], invalid: [] },
        notes: [],
      };
    },
  };
  return {
    handlers,
    claimVersions: (key) => structuredClone(claimSets.get(key) ?? []),
    keyFactVersions: (docId) => structuredClone(factSets.get(documentKeyOf(docId)) ?? []),
    claimLabel: (annotator, claimId) => claimLabels.get(claimKey(annotator, claimId)),
    keyFactLabel: (annotator, key, keyFactId) => factLabels.get(factKey(annotator, key, keyFactId)),
    seedClaimLabel: (annotator, claimId, state) => void claimLabels.set(claimKey(annotator, claimId), state),
    runs,
  };
}
