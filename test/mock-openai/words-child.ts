/**
 * Runs the test-only words kind over every sentence of a project, as its own process (so a test
 * can SIGKILL it mid-run):  node --import tsx test/mock-openai/words-child.ts PROJECT BASE_URL
 */
import Database from 'better-sqlite3';
import { openProjectDatabase } from '../../db/open';
import { Repository } from '../../db/repository';
import { createJsonTaskRun } from '../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../electron/core/tasks/model-config';
import { wordsKind } from './words-kind';

const [project, baseUrl] = process.argv.slice(2);
if (!project || !baseUrl) throw new Error('usage: words-child.ts PROJECT BASE_URL');
const db = openProjectDatabase(Database, project, { create: false });
const repo = new Repository(db);
const run = createJsonTaskRun({
  kind: wordsKind,
  config: ModelConfigSchema.parse({ baseUrl, model: 'mock-words', concurrency: 4 }),
  tasks: repo.tasks,
  apiKey: null,
  items: repo.judges.selectUnits(null, false),
  itemKey: (u) => `unit:${u.unitId}`,
  resolve: (u) => ({ sentence: u.sentence }),
});
run.start();
await run.finished;
process.stdout.write(`${JSON.stringify(run.progress())}\n`);
db.close();
