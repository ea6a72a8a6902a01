/**
 * Every contract method (shared/api.ts) and how the command line reaches it: the `loupe` command
 * (with the options that select it) that calls it, or why it is left to the app and `loupe serve`.
 * The type makes the table complete; the integration tier checks each named command and option is
 * registered, and the README's section "Every capability from every host" is rendered from here.
 */
import type { ApiMethod } from '../../shared/api';

/**
 * `cli`: the command path, then any options that select the method ("judge --batch-out").
 * `via`: the command reaches the same capability through another method (a rerun resumes through
 * a new start), or 'startup': the CLI host does it as it starts (open or create --project).
 */
export type Reach = { cli: string; how?: string; via?: ApiMethod | 'startup' } | { uiOnly: string };

const LABELING = 'labeling itself: blind, timed, one item at a time in the annotation view';
const ADJUDICATING = 'adjudication is interactive like labeling: blind cards, one decision at a time';
const EDITING =
  'editing a set is interactive (add, drop, reword one item at a time, or propose it as an annotator); from the CLI, import an edited file';
const VERSIONS = "the version history of the set's pane; the export writes the current versions with their provenance";
const DIALOGS = "the desktop app's native file dialogs; a command takes the path itself";
const CANCEL =
  'a command runs in its own process: Ctrl-C pauses it (exit 130), answers stored; the app cancels runs that live on in its window';
const RUNS = "the app's list of this session's runs; a command follows the one run it started";
const LINKS =
  'annotator links live in a running `loupe serve` (its lead page lists and revokes them); `serve --annotator` hands them out';

export const CLI_PARITY: Record<ApiMethod, Reach> = {
  'app.info': { cli: '--version', how: 'the version; the rest describes the host to the UI', via: 'startup' },
  'projects.recent': { uiOnly: "the app's Open Recent menu; every command names its project with --project" },
  'projects.open': {
    cli: 'datasets --project',
    how: 'every command opens the project its --project names',
    via: 'startup',
  },
  'projects.create': {
    cli: 'import --project',
    how: 'a missing project is created by its first import',
    via: 'startup',
  },
  'projects.openDemo': { cli: 'serve', how: 'without --project', via: 'startup' },
  'datasets.list': { cli: 'datasets' },
  'annotators.list': {
    uiOnly: 'the annotator picker and the Annotators pane; export writes one row per sentence and annotator',
  },
  'annotators.ensure': { uiOnly: `the annotator picker registers a name before ${LABELING}` },
  'annotators.activity': { uiOnly: "the Annotators pane's per-person activity" },
  'imports.start': { cli: 'import' },
  'jobs.get': { cli: 'import', how: 'its progress line' },
  'jobs.cancel': { cli: 'import', how: 'Ctrl-C' },
  'sampling.draw': { cli: 'sample' },
  'sampling.list': { uiOnly: "the Sample pane's list of batches; `loupe sample` prints each batch it draws" },
  'annotation.queue': { uiOnly: LABELING },
  'annotation.next': { uiOnly: LABELING },
  'annotation.load': { uiOnly: LABELING },
  'annotation.record': { uiOnly: LABELING },
  'annotation.revealStatus': { uiOnly: "the annotation view's reveal gate (it asks before judge outputs are shown)" },
  'annotation.reveal': { uiOnly: "the annotation view's reveal gate (it asks before judge outputs are shown)" },
  'annotation.attachDocument': {
    uiOnly:
      'a document picked while annotating a summary without one; from the CLI, import the rows with their documents',
  },
  'judges.defaults': { uiOnly: 'fills the new-judge form; `loupe judges add --help` states the same defaults' },
  'judges.list': { cli: 'judges list' },
  'judges.add': { cli: 'judges add' },
  'judges.update': { cli: 'judges add --replace' },
  'judges.remove': { cli: 'judges remove' },
  'judges.preview': { cli: 'judges preview' },
  'judges.start': { cli: 'judge' },
  'judges.pause': { cli: 'judge', how: 'Ctrl-C' },
  'judges.resume': {
    cli: 'judge',
    how: 'running it again resumes: answered sentences are not sent again',
    via: 'judges.start',
  },
  'judges.cancel': { uiOnly: CANCEL },
  'judges.status': { cli: 'judge', how: 'its progress line' },
  'judges.runs': { uiOnly: RUNS },
  'judges.plan': { cli: 'judge --plan' },
  'judges.batchExport': { cli: 'judge --batch-out' },
  'judges.batchImport': { cli: 'judge --batch-in' },
  'analysis.start': { cli: 'analyze' },
  'analysis.status': { cli: 'analyze', how: 'its progress on a terminal' },
  'analysis.cancel': { cli: 'analyze', how: 'Ctrl-C' },
  'analysis.latest': { uiOnly: "a view that reopens finds this session's latest analysis; a command runs its own" },
  'planning.plan': { cli: 'plan' },
  'review.queue': { cli: 'review' },
  'review.card': { uiOnly: ADJUDICATING },
  'review.record': { uiOnly: ADJUDICATING },
  'review.reveal': { uiOnly: ADJUDICATING },
  'review.table': { cli: 'review-table' },
  'review.corrections': { cli: 'corrections' },
  'export.build': {
    cli: 'export --card',
    how: 'the dataset card beside the file; the rows themselves are streamed to --out by export.write',
  },
  'export.write': {
    cli: 'export',
    how: 'every kind: labels (--history), --predictions, --review, --accuracy, --scaffold, --scaffold-alignments, --card',
  },
  'links.list': { uiOnly: LINKS },
  'links.create': { cli: 'serve --annotator' },
  'links.revoke': { uiOnly: LINKS },
  'merge.projects': { cli: 'merge' },
  'dialog.openProject': { uiOnly: DIALOGS },
  'dialog.openProjects': { uiOnly: DIALOGS },
  'dialog.createProject': { uiOnly: DIALOGS },
  'dialog.importFile': { uiOnly: DIALOGS },
  'dialog.saveExport': { uiOnly: DIALOGS },
  'dialog.chooseSavePath': { uiOnly: DIALOGS },
  'dialog.openBatchFile': { uiOnly: DIALOGS },
  'claims.list': {
    cli: 'claims list',
    how: 'a page at a time: --limit, --cursor or --all, --state, --source, --search',
  },
  'claims.versions': { uiOnly: VERSIONS },
  'claims.load': { uiOnly: LABELING },
  'claims.record': { uiOnly: LABELING },
  'claims.edit': { uiOnly: `${EDITING} (import --as accuracy)` },
  'keyfacts.list': {
    cli: 'keyfacts list',
    how: 'a page at a time: --limit, --cursor or --all, --state, --source, --search',
  },
  'keyfacts.versions': { uiOnly: VERSIONS },
  'keyfacts.load': { uiOnly: LABELING },
  'keyfacts.record': { uiOnly: LABELING },
  'keyfacts.edit': { uiOnly: `${EDITING} (import --as accuracy)` },
  'systems.list': { cli: 'systems list' },
  'systems.add': { cli: 'systems add' },
  'systems.remove': { cli: 'systems remove' },
  'accuracy.tasks': { cli: 'accuracy tasks' },
  'accuracy.preview': { cli: 'accuracy preview' },
  'accuracy.plan': { cli: 'accuracy plan' },
  'accuracy.start': { cli: 'accuracy run' },
  'accuracy.status': { cli: 'accuracy run', how: 'its progress line' },
  'accuracy.pause': { cli: 'accuracy run', how: 'Ctrl-C' },
  'accuracy.resume': {
    cli: 'accuracy run',
    how: 'running it again resumes: answered items are not sent again',
    via: 'accuracy.start',
  },
  'accuracy.cancel': { uiOnly: CANCEL },
  'accuracy.runs': { uiOnly: RUNS },
  'accuracy.batchExport': { cli: 'accuracy run --batch-out' },
  'accuracy.batchImport': { cli: 'accuracy run --batch-in' },
  'scaffold.load': { uiOnly: LABELING },
  'scaffold.record': { uiOnly: LABELING },
  'scaffold.edit': { uiOnly: `${EDITING} (import --as scaffold)` },
  'scaffold.versions': { uiOnly: VERSIONS },
  'proposals.list': { cli: 'proposals list' },
  'proposals.accept': { cli: 'proposals accept' },
  'proposals.decline': { cli: 'proposals decline' },
};

/** A `cli` entry split into the command path and the options it names. */
export function commandOf(cli: string): { path: string; options: string[] } {
  const words = cli.split(' ');
  const first = words.findIndex((w) => w.startsWith('--'));
  const path = first === -1 ? words : words.slice(0, first);
  return { path: path.join(' '), options: first === -1 ? [] : words.slice(first) };
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README section, one row per method in the contract's order. */
export function parityMarkdown(methods: readonly ApiMethod[]): string {
  const rows = methods.map((m) => {
    const reach = CLI_PARITY[m];
    return 'cli' in reach
      ? `| \`${m}\` | \`loupe ${reach.cli}\`${reach.how ? ` (${cell(reach.how)})` : ''} |`
      : `| \`${m}\` | UI only: ${cell(reach.uiOnly)} |`;
  });
  return [
    '## Every capability from every host',
    '',
    'Every method of the contract (`shared/api.ts`) is reached from the desktop app and `loupe serve` (the same UI over',
    'the same `dispatch`). The command line reaches each one through the `loupe` command below, or the method is left',
    'to the UI for the reason given. The table is `electron/cli/parity.ts`; `test/integration/cli-parity.test.ts` fails',
    'on a method in neither list, on a command or option the CLI does not register, and on this section out of date.',
    '',
    '| Method | From the command line |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
