/**
 * `loupe claims list` and `loupe keyfacts list`: the summaries (summarised documents) with the
 * state of their claims (key facts), a page at a time as the contract answers them:
 *   claims list --project P [--dataset D] [--state all|with|without] [--source model|imported|person]
 *               [--search TEXT] [--limit N] [--cursor C | --all] [--json]
 *   keyfacts list (the same options)
 * One page prints its rows, then (on stderr) how many of the total and the next page's --cursor.
 * --all walks every page, printing each as it comes (with --json, one JSON object a line), so the
 * output of a large project never waits for, nor holds, the whole list.
 */
import { once } from 'node:events';
import type { Command } from 'commander';
import type { ApiInput, ApiOutput, ClaimListEntry, KeyFactListEntry } from '../../shared/api';
import { LIMITS } from '../../shared/limits';
import { number, projectClient, UsageError } from './client';

type ListMethod = 'claims.list' | 'keyfacts.list';

const setState = (
  version: number | null,
  versions: number,
  count: string,
  source: string | null,
  maker: string | null,
) => (version === null ? 'none yet' : `version ${version} of ${versions}: ${count}, ${source}, ${maker}`);

/** One row of each list as a tab-separated line. */
const ROWS: { [M in ListMethod]: (item: ApiOutput<M>['items'][number]) => string } = {
  'claims.list': (c: ClaimListEntry) =>
    `${c.key}\t${c.dataset}\t${c.summaryId}\t${c.docId}\t${c.system ?? '-'}\t${c.sentences} sentences\t` +
    setState(c.currentVersion, c.versions, `${c.claims} claims`, c.source, c.decomposer),
  'keyfacts.list': (k: KeyFactListEntry) =>
    `${k.documentKey}\t${k.dataset}\t${k.docId}\t${k.summaries} summaries\t` +
    setState(k.currentVersion, k.versions, `${k.facts} key facts`, k.source, k.extractor),
};

interface ListOptions {
  project: string;
  dataset?: string;
  state?: string;
  source?: string;
  search?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
  json?: boolean;
}

async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

async function printList<M extends ListMethod>(method: M, opts: ListOptions): Promise<void> {
  if (opts.all && opts.cursor !== undefined)
    throw new UsageError('give --cursor (one page) or --all (every page), not both');
  // The contract judges every value (states, sources, bounds): the command passes them as given.
  const input = {
    ...(opts.dataset !== undefined ? { dataset: opts.dataset } : {}),
    ...(opts.state !== undefined ? { state: opts.state } : {}),
    ...(opts.source !== undefined ? { source: opts.source } : {}),
    ...(opts.search !== undefined ? { search: opts.search } : {}),
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
  } as ApiInput<M>;
  const row = ROWS[method] as (item: ApiOutput<M>['items'][number]) => string;
  const client = projectClient(opts.project);
  try {
    let cursor = opts.cursor ?? null;
    let shown = 0;
    do {
      const page = (await client.call(method, { ...input, ...(cursor !== null ? { cursor } : {}) })) as ApiOutput<M>;
      shown += page.items.length;
      if (opts.json && !opts.all) await write(`${JSON.stringify(page, null, 2)}\n`);
      else if (page.items.length > 0)
        await write(page.items.map((item) => `${opts.json ? JSON.stringify(item) : row(item)}\n`).join(''));
      cursor = page.nextCursor;
      if (!opts.all) {
        process.stderr.write(
          `${page.items.length} of ${page.total}${cursor !== null ? `; next page: --cursor ${cursor}` : ''}\n`,
        );
        return;
      }
      if (cursor === null) process.stderr.write(`${shown} of ${page.total}\n`);
    } while (cursor !== null);
  } finally {
    client.close();
  }
}

export function registerSetListCommands(program: Command): void {
  for (const [name, method, what] of [
    ['claims', 'claims.list', 'summaries with the state of their claims, in summary key order'],
    ['keyfacts', 'keyfacts.list', 'summarised documents with the state of their key facts, in document key order'],
  ] as const) {
    program
      .command(name)
      .description(`the ${name === 'claims' ? 'claims of summaries' : 'key facts of documents'}: list`)
      .command('list')
      .description(`list the ${what}, a page at a time`)
      .requiredOption('--project <path>', 'project file')
      .option('--dataset <name>', 'only this dataset')
      .option('--state <state>', 'all (default), with (a set of any version) or without (none yet)')
      .option('--source <source>', "only those whose current set's source is model, imported or person")
      .option('--search <text>', 'only those whose summary id, doc id or system name contains the text (any case)')
      .option(
        '--limit <n>',
        `rows per page (default ${LIMITS.lists.limit.default}, at most ${LIMITS.lists.limit.max.toLocaleString('en-US')})`,
        number('--limit'),
      )
      .option('--cursor <cursor>', 'the page after this cursor (printed after the page before it)')
      .option('--all', 'every page, each printed as it comes')
      .option('--json', 'one page: its JSON document; with --all, one JSON object a line')
      .action((opts: ListOptions) => printList(method, opts));
  }
}
