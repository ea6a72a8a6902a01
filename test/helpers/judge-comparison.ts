/**
 * A project for comparing systems by a judge source, built through the CLI: five documents, each
 * with a scaffold (a main and a supporting fact, five attributes of one entity) and a summary by
 * each of two systems; a judge aligned all ten summaries (alpha keeps F1 and 4 attributes, beta F1,
 * F2 and 1 attribute: EPS 0.8 against 0.2, FPS 1 against 0), a person ("human:ana", an imported
 * label set) aligned one, so the people pair no document across systems.
 */
import { join } from 'node:path';
import { mustLoupe, writeJsonl } from './project';

export const COMPARISON_DATASET = 'reports';
export const COMPARISON_JUDGE = 'judge-j';
const DOCS = ['d0', 'd1', 'd2', 'd3', 'd4'];
const KEPT = { alpha: 4, beta: 1 } as const;
const ATTRIBUTES = ['a1', 'a2', 'a3', 'a4', 'a5'];

function summaries(): unknown[] {
  return DOCS.flatMap((doc) =>
    (Object.keys(KEPT) as Array<keyof typeof KEPT>).map((system) => ({
      type: 'summary',
      dataset: COMPARISON_DATASET,
      doc_id: doc,
      document: `Report ${doc} describes the plant. The plant opened in spring. It employs forty people. It exports to three countries. It runs on solar power.`,
      summary_id: `${doc}-${system}`,
      summary: `The plant of ${doc} opened in spring. It employs forty people.`,
      system,
    })),
  );
}

function scaffolds(): unknown[] {
  return DOCS.map((doc) => ({
    dataset: COMPARISON_DATASET,
    doc_id: doc,
    facts: [
      { id: 'F1', text: 'The plant opened in spring.', tier: 'main' },
      { id: 'F2', text: 'The plant employs forty people.', tier: 'supporting' },
    ],
    questions: [],
    entities: [
      { name: 'plant', attributes: ATTRIBUTES.map((id, i) => ({ id, text: `attribute ${i + 1} of the plant` })) },
    ],
  }));
}

function alignments(): unknown[] {
  const aligned = (doc: string, system: keyof typeof KEPT, source: string) => ({
    dataset: COMPARISON_DATASET,
    summary_id: `${doc}-${system}`,
    source,
    facts: { F1: 'preserved', F2: system === 'alpha' ? 'missing' : 'preserved' },
    questions: {},
    attributes: Object.fromEntries(ATTRIBUTES.map((id, i) => [id, i < KEPT[system] ? 'preserved' : 'missing'])),
  });
  return [
    ...DOCS.flatMap((doc) => [
      aligned(doc, 'alpha', `judge:${COMPARISON_JUDGE}`),
      aligned(doc, 'beta', `judge:${COMPARISON_JUDGE}`),
    ]),
    aligned('d0', 'alpha', 'human:ana'),
  ];
}

/** Imports the three files into a new project at `project` (files written in `dir`). */
export function buildComparisonProject(dir: string, project: string): void {
  mustLoupe(['import', writeJsonl(join(dir, 'summaries.jsonl'), summaries()), '--project', project]);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'scaffolds.jsonl'), scaffolds()),
    '--project',
    project,
    '--as',
    'scaffold',
  ]);
  mustLoupe([
    'import',
    writeJsonl(join(dir, 'alignments.jsonl'), alignments()),
    '--project',
    project,
    '--as',
    'scaffold-alignments',
  ]);
}
