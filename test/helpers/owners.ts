/**
 * A project where alice and bob each have their own half of a sample (an assigned batch), opened
 * in a core whose calls go through dispatch as the lead or as an annotator link.
 */
import { join } from 'node:path';
import { LEAD, type ApiMethod, type Caller, type Envelope } from '../../shared/api';
import type { Core, LinkRegistry } from '../../electron/core/index';
import { webCore } from './web-core';
import { dispatch } from '../../electron/core/dispatch';
import { runImport } from '../../electron/core/imports/run';
import { newsRows, writeJsonl, type SummaryRow } from './project';

export const ALICE: Caller = { role: 'annotator', annotator: 'alice' };
export const BOB: Caller = { role: 'annotator', annotator: 'bob' };

export interface SplitProject {
  core: Core;
  /** One call through dispatch, as `caller` (default: the lead). */
  call(method: ApiMethod, input: unknown, caller?: Caller): Promise<Envelope>;
  /** Like call, but returns the value and throws on a refusal. */
  value<T = unknown>(method: ApiMethod, input: unknown, caller?: Caller): Promise<T>;
  /** Summary keys of each annotator's queue. */
  queueOf(name: string): Promise<Array<{ key: number; docId: string }>>;
  /** The document key of a summary. */
  documentKeyOf(summaryKey: number): number;
}

/** `rows`: the dataset "news" to split (default: four summaries, each of its own document); `links`: `loupe serve`'s annotator links. */
export async function splitProject(
  dir: string,
  rows: SummaryRow[] = newsRows(4),
  links: LinkRegistry | null = null,
): Promise<SplitProject> {
  const core = webCore(dir, { links });
  core.createProject(join(dir, 'owners.loupe'));
  await runImport(core.repository(), { source: { type: 'path', path: writeJsonl(join(dir, 'news.jsonl'), rows) } });
  const call = (method: ApiMethod, input: unknown, caller: Caller = LEAD) =>
    dispatch(core.handlers, method, input, caller);
  const value = async <T>(method: ApiMethod, input: unknown, caller: Caller = LEAD): Promise<T> => {
    const r = await call(method, input, caller);
    if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };
  await value('sampling.draw', { dataset: 'news', n: rows.length, seed: 0, annotators: ['alice', 'bob'] });
  const queueOf = async (name: string) =>
    (await value<{ items: Array<{ key: number; docId: string }> }>('annotation.queue', { annotator: name })).items.map(
      ({ key, docId }) => ({ key, docId }),
    );
  const documentKeyOf = (summaryKey: number) => core.repository().corpus.summaryInfo(summaryKey)!.documentKey;
  return { core, call, value, queueOf, documentKeyOf };
}
