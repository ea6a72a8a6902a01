/**
 * Seed 000, App. B.4 as files: one screenshot document (camera-access settings), two summaries
 * (Internal-S and GPT-4o), its scaffold (4 main facts M1–M4, 3 supporting S1–S3; 9 entity
 * attributes across 4 entities; 2 main and 2 supporting questions) and the alignments the appendix
 * walks through:
 *   Internal-S: M2, M3 preserved, M1 only partially signalled, M4 missing; S1 preserved, S2, S3
 *     missing → FPS = 2/4 · (1 − 1/3) ≈ 0.33; attributes 2/3 device, 1/2 application, 1/2 Windows
 *     Hello, 0/2 desktop applications → EPS = 4/9.
 *   GPT-4o: M1–M3 preserved, M4 missing; S1, S2 preserved → FPS = 3/4 · (1 − 2/3) = 0.25.
 * The question and attribute values of GPT-4o and the questions of Internal-S are this test's own
 * (the appendix does not give them).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createCore } from '../../electron/core/index';
import { runImport } from '../../electron/core/imports/run';
import type { ImportKind } from '../../shared/formats/types';
import { writeJsonl } from './project';
import { tempDir } from './tmp';

export const B4_DATASET = 'screenshots';
const DOCUMENT =
  'Camera settings. Choose which apps can access your camera. If you deny access, most apps cannot use the camera. ' +
  'Windows Hello is not affected by this setting. Some desktop apps are not listed here. Access can be changed at any time.';
const INTERNAL_S =
  'The page lets users choose which apps can access the camera. Denying access blocks most apps, but not Windows Hello.';
const GPT_4O =
  'The document explains camera access settings on a device, allowing users to control app access to the camera. It notes that denying access blocks most apps except Windows Hello and mentions exceptions for some desktop apps.';

export function b4Summaries(): unknown[] {
  return [
    {
      type: 'summary',
      dataset: B4_DATASET,
      doc_id: 'camera',
      document: DOCUMENT,
      summary_id: 'camera-internal-s',
      summary: INTERNAL_S,
      system: 'Internal-S',
    },
    {
      type: 'summary',
      dataset: B4_DATASET,
      doc_id: 'camera',
      document: DOCUMENT,
      summary_id: 'camera-gpt-4o',
      summary: GPT_4O,
      system: 'GPT-4o',
    },
  ];
}

export function b4Scaffold(): Record<string, unknown> {
  return {
    dataset: B4_DATASET,
    doc_id: 'camera',
    extractor: 'gpt-4.1',
    extractor_version: 'app-g-v1',
    facts: [
      { id: 'M1', text: 'The page is about camera access settings.', tier: 'main' },
      { id: 'M2', text: 'Users choose which apps can access the camera.', tier: 'main' },
      { id: 'M3', text: 'Denying access blocks most apps.', tier: 'main' },
      { id: 'M4', text: 'Access can be changed at any time.', tier: 'main' },
      { id: 'S1', text: 'Windows Hello is not affected by the setting.', tier: 'supporting' },
      { id: 'S2', text: 'Some desktop apps are not listed.', tier: 'supporting' },
      { id: 'S3', text: 'The settings are under a Camera heading.', tier: 'supporting' },
    ],
    questions: [
      { id: 'Q1', text: 'What does the page control?', answer: 'Which apps can access the camera.', tier: 'main' },
      {
        id: 'Q2',
        text: 'What happens when access is denied?',
        answer: 'Most apps cannot use the camera.',
        tier: 'main',
      },
      { id: 'Q3', text: 'Is Windows Hello affected?', answer: 'No.', tier: 'supporting' },
      { id: 'Q4', text: 'Are all desktop apps listed?', answer: 'No, some are not.', tier: 'supporting' },
    ],
    entities: [
      {
        name: 'device camera',
        attributes: [
          { id: 'dev1', text: 'has an access setting' },
          { id: 'dev2', text: 'access can be denied' },
          { id: 'dev3', text: 'access can be changed at any time' },
        ],
      },
      {
        name: 'apps',
        attributes: [
          { id: 'app1', text: 'can be chosen individually' },
          { id: 'app2', text: 'are blocked when access is denied' },
        ],
      },
      {
        name: 'Windows Hello',
        attributes: [
          { id: 'hello1', text: 'not affected by the setting' },
          { id: 'hello2', text: 'uses the camera for sign-in' },
        ],
      },
      {
        name: 'desktop apps',
        attributes: [
          { id: 'desk1', text: 'some are not listed' },
          { id: 'desk2', text: 'are governed by a separate setting' },
        ],
      },
    ],
  };
}

/** Alignments of both summaries by the given source (the same values for a judge and for people). */
export function b4Alignments(source: string): Array<Record<string, unknown>> {
  return [
    {
      dataset: B4_DATASET,
      summary_id: 'camera-internal-s',
      source,
      facts: {
        M1: 'partial',
        M2: 'preserved',
        M3: 'preserved',
        M4: 'missing',
        S1: 'preserved',
        S2: 'missing',
        S3: 'missing',
      },
      questions: { Q1: 'answered', Q2: 'answered', Q3: 'answered', Q4: 'unanswered' },
      attributes: {
        dev1: 'preserved',
        dev2: 'preserved',
        dev3: 'missing',
        app1: 'preserved',
        app2: 'missing',
        hello1: 'preserved',
        hello2: 'missing',
        desk1: 'missing',
        desk2: 'missing',
      },
      // Sentence 0 conveys M2, sentence 1 conveys M3 and S1: both sentences align to a fact.
      fact_sentences: { M2: [0], M3: [1], S1: [1] },
    },
    {
      dataset: B4_DATASET,
      summary_id: 'camera-gpt-4o',
      source,
      facts: {
        M1: 'preserved',
        M2: 'preserved',
        M3: 'preserved',
        M4: 'missing',
        S1: 'preserved',
        S2: 'preserved',
        S3: 'missing',
      },
      questions: { Q1: 'answered', Q2: 'answered', Q3: 'answered', Q4: 'answered' },
      attributes: {
        dev1: 'preserved',
        dev2: 'preserved',
        dev3: 'missing',
        app1: 'preserved',
        app2: 'preserved',
        hello1: 'preserved',
        hello2: 'missing',
        desk1: 'preserved',
        desk2: 'misrepresented',
      },
    },
  ];
}

export async function b4Project(prefix = 'loupe-scaffold-b4-') {
  const dir = tempDir(prefix);
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  const path = join(dir, 'b4.loupe');
  core.createProject(path);
  const repo = core.repository();
  const run = (name: string, rows: unknown[], as?: ImportKind) =>
    runImport(repo, { source: { type: 'path', path: writeJsonl(join(dir, name), rows) }, ...(as ? { as } : {}) });
  await run('summaries.jsonl', b4Summaries());
  const scaffold = await run('scaffold.jsonl', [b4Scaffold()]);
  const alignments = await run('alignments.jsonl', [...b4Alignments('judge:gpt-4.1'), ...b4Alignments('human:rater')]);
  return { dir, core, repo, path, run, scaffold, alignments };
}
