/**
 * Which export the input asks for (the card, review results, judge predictions, claims and key
 * facts, scaffolds, or by default the labels), each planned by its own module; `buildExport` is the
 * whole file in memory, for callers that want the text (tests, a browser download).
 */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { accuracyExportPlan } from './accuracy';
import { collectExport, type ExportFile, type ExportPlan } from './files';
import { labelsExportPlan } from './labels';
import { predictionsExportPlan } from './predictions';
import { cardExportPlan, reviewExportPlan } from './review';
import { scaffoldExportPlan } from './scaffold';

export function exportPlan(repo: Repository, input: ExportInput, projectName: string): ExportPlan {
  if (input.card) return cardExportPlan(repo, input, projectName);
  if (input.review) return reviewExportPlan(repo, input, projectName);
  if (input.predictions) return predictionsExportPlan(repo, input, projectName);
  if (input.accuracy) return accuracyExportPlan(repo, input, projectName);
  if (input.scaffold || input.scaffoldAlignments) return scaffoldExportPlan(repo, input, projectName);
  return labelsExportPlan(repo, input, projectName);
}

export function buildExport(repo: Repository, input: ExportInput, projectName: string): ExportFile {
  return collectExport(exportPlan(repo, input, projectName), (text) => text);
}
