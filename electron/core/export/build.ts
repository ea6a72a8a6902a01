/**
 * export.build: which export the input asks for (the card, review results, judge predictions,
 * claims and key facts, scaffolds, or by default the labels), each written by its own module.
 */
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { buildAccuracyExport } from './accuracy';
import type { ExportFile } from './files';
import { buildLabelsExport } from './labels';
import { buildPredictionsExport } from './predictions';
import { buildCardExport, buildReviewExport } from './review';
import { buildScaffoldExport } from './scaffold';

export function buildExport(repo: Repository, input: ExportInput, projectName: string): ExportFile {
  if (input.card) return buildCardExport(repo, input, projectName);
  if (input.review) return buildReviewExport(repo, input, projectName);
  if (input.predictions) return buildPredictionsExport(repo, input, projectName);
  if (input.accuracy) return buildAccuracyExport(repo, input, projectName);
  if (input.scaffold || input.scaffoldAlignments) return buildScaffoldExport(repo, input, projectName);
  return buildLabelsExport(repo, input, projectName);
}
