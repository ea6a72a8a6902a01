import Database from 'better-sqlite3';
import { runAnalysisJob } from '../electron/core/analysis/job';
const t = performance.now();
const r = runAnalysisJob(Database as never, { projectPath: '/tmp/prof/p20k.loupe', dataset: null, settings: { bootstrap: 2000, seed: 0, cap: 0, reference: 'people' as never, humanLabel: 'majority' as never, includeRevealed: false } });
console.log(r.timings, performance.now() - t);
