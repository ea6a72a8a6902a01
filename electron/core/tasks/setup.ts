/**
 * What every LLM task of the accuracy.* namespace shares when it is set up for a run, a plan, a
 * preview or a batch file: who answers (a judge or a system), the selection, and `setupOf`, which
 * turns a task's items and the meaning of its answers into a TaskSource for the engine.
 *
 * Every task keeps its raw answers in `task_results` (the content cache, resume, failed calls sent
 * again) and, in the same transaction, writes what they mean (a claim set, predictions, a summary,
 * a scaffold): each task's own module says what (tasks/registry.ts lists them).
 */
import type { CorpusRepository } from '../../../db/corpusRepository';
import type { Repository } from '../../../db/repository';
import type { SystemConfig } from '../../../shared/contract/systems';
import { jsonResultSource, type JsonTaskKind } from './json-kind';
import type { TaskKind, TaskResult, TaskSource } from './kind';
import type { ModelConfig } from './model-config';

/** Who answers: a judge of judges.* (its endpoint and model), or a system under test. */
export type Answerer =
  | { type: 'judge'; name: string; judgeId: number; config: ModelConfig }
  | { type: 'system'; name: string; systemId: number; config: SystemConfig };

export type Judge = Extract<Answerer, { type: 'judge' }>;
export type System = Extract<Answerer, { type: 'system' }>;

export interface Selection {
  dataset: string | null;
  onlySampled: boolean;
  lines: 'sentences' | 'claims';
  /** scaffold_extraction and scaffold_alignment: the paper's separate prompts (App. G.1–G.6) or one combined request each. */
  prompts: 'paper' | 'combined';
}

/** One task over one selection, ready for the engine (a run, a plan, a preview). */
export interface TaskSetup<C, Item, I, O> {
  kind: TaskKind<C, I, O>;
  config: C;
  configHash: string;
  source: TaskSource<Item, I, O>;
  /** Why items were left out (no document, no claims or key facts yet, a person's set kept). */
  notes: string[];
  /** Items left out (counted in the plan and the run). */
  missing: number;
  /** Writes what stored outputs imply and is not written yet (a run killed between the two). Run at start. */
  repair(): void;
  /** The first item with its input, for a preview. */
  first(): { label: string; input: I } | null;
}

/** A setup of any task: the engine takes each as it is (method parameters are bivariant). */
export type AnySetup = TaskSetup<unknown, unknown, unknown, unknown>;

export interface ItemSpec<Item, I, O> {
  kind: TaskKind<never, I, O> | JsonTaskKind<I, O>;
  ref: {
    name: string;
    version: number;
    schema: { safeParse(v: unknown): { success: true; data: O } | { success: false; error: { message: string } } };
  };
  configHash: string;
  items: Item[];
  itemKey(item: Item): string;
  resolve(item: Item): I | null;
  label(item: Item): string;
  /** Writes the meaning of saved results (same transaction as task_results). */
  afterSave?(results: ReadonlyArray<TaskResult<Item, O>>): void;
  repair?(): void;
  /**
   * The common case instead of afterSave/repair: writes one answer's meaning. It runs for each
   * answer as it is saved, and on repair for each item's stored answer (a run killed between the two).
   */
  writeAnswer?(item: Item, output: O, raw: string | null): void;
  missing: number;
  notes: string[];
}

export function setupOf<C, Item, I, O>(
  repo: Repository,
  kind: TaskKind<C, I, O>,
  config: C,
  spec: ItemSpec<Item, I, O>,
): TaskSetup<C, Item, I, O> {
  const results = repo.tasks.forKind(spec.ref);
  const { writeAnswer } = spec;
  const afterSave = (batch: ReadonlyArray<TaskResult<Item, O>>) => {
    spec.afterSave?.(batch);
    if (writeAnswer) for (const r of batch) if (r.output !== null) writeAnswer(r.item, r.output, r.raw);
  };
  const repair = () => {
    spec.repair?.();
    if (!writeAnswer) return;
    repo.transaction(() => {
      for (const i of spec.items) {
        const r = results.result(spec.configHash, spec.itemKey(i));
        if (r && r.errorKind === null && r.output !== null) writeAnswer(i, r.output, r.raw);
      }
    });
  };
  const base = jsonResultSource<Item, I, O>(results, {
    configHash: spec.configHash,
    items: spec.items,
    itemKey: spec.itemKey,
    resolve: spec.resolve,
  });
  const source: TaskSource<Item, I, O> = {
    ...base,
    plan: () => ({ ...base.plan(), missing: spec.missing }),
    save(batch) {
      repo.transaction(() => {
        base.save(batch);
        afterSave(batch);
      });
    },
    // The engine counts `missing` from the plan; the setup's notes say what was left out and why.
    missingNote: () => '',
  };
  return {
    kind,
    config,
    configHash: spec.configHash,
    source,
    notes: spec.notes,
    missing: spec.missing,
    repair,
    first() {
      for (const item of spec.items) {
        const input = spec.resolve(item);
        if (input !== null) return { label: spec.label(item), input };
      }
      return null;
    },
  };
}

export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Document texts, read once per setup. */
export function documentTexts(corpus: CorpusRepository): (documentKey: number) => string | null {
  const texts = new Map<number, string | null>();
  return (key) => {
    if (!texts.has(key)) {
      if (texts.size >= 64) texts.delete(texts.keys().next().value!);
      texts.set(key, corpus.documentInfo(key)?.text ?? null);
    }
    return texts.get(key)!;
  };
}

export const makerOf = (task: string, hash: string) => `task:${task}@${hash}`;
export const noteOf = (who: Answerer) => `${who.type} "${who.name}" (model ${who.config.model})`;

/** Whether a model may write a new set over the current one (none, or another model's). */
export function replaceable(
  current: { source: string; maker: string } | null,
  maker: string,
): 'write' | 'done' | 'kept' {
  if (current === null) return 'write';
  if (current.maker === maker) return 'done';
  return current.source === 'model' ? 'write' : 'kept';
}
