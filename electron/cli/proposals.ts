/**
 * `loupe proposals` (the lead's side of annotators' proposed versions of shared sets):
 *   proposals list --project P [--author NAME] [--status pending|accepted|declined] [--json]
 *   proposals accept ID --project P
 *   proposals decline ID --project P [--note TEXT]
 * Each prints the proposal: who proposed what for which set, against which version, and its diff.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Proposal, ProposalStatus } from '../../shared/api';
import { projectClient } from './client';

const WHAT = {
  claims: 'claims of summary',
  keyfacts: 'key facts of document',
  scaffold: 'scaffold of document',
} as const;
const MARK = { same: ' ', removed: '-', added: '+' } as const;
const STATUSES: readonly ProposalStatus[] = ['pending', 'accepted', 'declined'];

const id = (value: string): number => {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError('the proposal id is a whole number (see loupe proposals list)');
  return Number(value);
};

export function formatProposal(p: Proposal): string {
  const target =
    p.kind === 'claims' ? `${WHAT.claims} ${p.summaryId} (${p.dataset})` : `${WHAT[p.kind]} ${p.docId} (${p.dataset})`;
  const state =
    p.status === 'accepted'
      ? `accepted as version ${p.resultVersion}`
      : p.status === 'declined'
        ? `declined${p.decisionNote ? `: ${p.decisionNote}` : ''}`
        : p.stale
          ? `pending, stale (version ${p.currentVersion ?? 'none'} is current)`
          : 'pending';
  const lines = [`proposal ${p.id}\t${p.author}\t${target}\ton version ${p.baseVersion ?? 'none'}\t${state}`];
  if (p.note) lines.push(`  note: ${p.note}`);
  for (const d of p.diff) lines.push(`  ${MARK[d.op]} ${d.text}`);
  return lines.join('\n');
}

export function registerProposalsCommands(program: Command): void {
  const proposals = program
    .command('proposals')
    .description("annotators' proposed versions of claims, key facts and scaffolds: list, accept, decline");
  proposals
    .command('list')
    .description('list proposals, newest first, each with its diff against the version it was made on')
    .requiredOption('--project <path>', 'project file')
    .option('--author <name>', "only this annotator's")
    .option('--status <status>', `only ${STATUSES.join(', ')}`)
    .option('--json', 'print one JSON document')
    .action(async (opts: { project: string; author?: string; status?: string; json?: boolean }) => {
      if (opts.status !== undefined && !STATUSES.includes(opts.status as ProposalStatus))
        throw new InvalidArgumentError(`--status is one of ${STATUSES.join(', ')}`);
      const client = projectClient(opts.project);
      try {
        const list = await client.call('proposals.list', {
          ...(opts.author !== undefined ? { author: opts.author } : {}),
          ...(opts.status !== undefined ? { status: opts.status as ProposalStatus } : {}),
        });
        if (opts.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        else process.stdout.write(list.length === 0 ? 'No proposals.\n' : `${list.map(formatProposal).join('\n')}\n`);
      } finally {
        client.close();
      }
    });
  proposals
    .command('accept')
    .description('make a pending proposal the next version of its set (refused when its base is no longer current)')
    .argument('<id>', 'proposal id', id)
    .requiredOption('--project <path>', 'project file')
    .action(async (proposal: number, opts: { project: string }) => {
      const client = projectClient(opts.project);
      try {
        process.stdout.write(`${formatProposal(await client.call('proposals.accept', { id: proposal }))}\n`);
      } finally {
        client.close();
      }
    });
  proposals
    .command('decline')
    .description('close a pending proposal without a new version')
    .argument('<id>', 'proposal id', id)
    .requiredOption('--project <path>', 'project file')
    .option('--note <text>', 'the reason, shown to its author')
    .action(async (proposal: number, opts: { project: string; note?: string }) => {
      const client = projectClient(opts.project);
      try {
        process.stdout.write(
          `${formatProposal(await client.call('proposals.decline', { id: proposal, ...(opts.note !== undefined ? { note: opts.note } : {}) }))}\n`,
        );
      } finally {
        client.close();
      }
    });
}
