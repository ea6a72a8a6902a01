/**
 * Which prompts a scaffold run sends (accuracy.* `prompts`): the paper's separate prompts, App.
 * G.1–G.3 for extraction and G.4–G.6 for alignment, one request each (the default), or one
 * combined request per document or summary (cheaper). The kind that answered is recorded with
 * what it wrote: a scaffold's maker `task:<kind>@<config hash>`, a judge alignment's config hash
 * (task_results names its kind).
 */
import type { Repository } from '../../../db/repository';
import type { Judge, Selection } from '../tasks/setup';
import { combinedAlignmentSetup } from './alignment-task';
import { paperAlignmentSetup } from './alignment-paper-task';
import { combinedExtractionSetup } from './extraction-task';
import { paperExtractionSetup } from './extraction-paper-task';

export function scaffoldExtractionSetup(repo: Repository, judge: Judge, sel: Selection) {
  return sel.prompts === 'combined'
    ? combinedExtractionSetup(repo, judge, sel)
    : paperExtractionSetup(repo, judge, sel);
}

export function scaffoldAlignmentSetup(repo: Repository, judge: Judge, sel: Selection) {
  return sel.prompts === 'combined' ? combinedAlignmentSetup(repo, judge, sel) : paperAlignmentSetup(repo, judge, sel);
}
