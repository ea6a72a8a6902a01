/**
 * What an import did, in words, for every host (the CLI's line, the app's Import panel): only
 * the things this kind of file brings, so a scaffold import reads "9 scaffold versions added"
 * rather than "0 summaries added, 0 sentences, 0 labels".
 */
import type { ImportResult, SkippedLabels, SkippedPredictions } from '../api';
import { formatCount, nonZeroCounts, plural } from '../words';

/** The parts of the summary, in order; ["nothing new"] when the file added nothing. */
export function importedParts(result: ImportResult): string[] {
  const accuracy = result.accuracy;
  const sentenceLabels = result.labelsAdded - (accuracy?.labels ?? 0);
  const sentencePredictions = result.predictionsKept - (accuracy?.predictions ?? 0);
  const parts: string[] = [];
  if (result.summariesAdded + result.summariesUnchanged > 0) {
    parts.push(
      `${plural(result.summariesAdded, 'summary')} added (${formatCount(result.summariesUnchanged)} already there), ${plural(result.unitsAdded, 'sentence')}`,
    );
  }
  if (sentenceLabels + result.labelsUnchanged > 0 || result.kind === 'labels') {
    parts.push(
      `${plural(sentenceLabels, 'sentence label')} added (${formatCount(result.labelsUnchanged)} already there)`,
    );
  }
  if (sentencePredictions > 0 || result.kind === 'predictions')
    parts.push(`${plural(sentencePredictions, 'judge prediction')} added`);
  if (accuracy) {
    const counts = nonZeroCounts([
      [accuracy.claimSets, 'claim set'],
      [accuracy.keyFactSets, 'key-fact list'],
      [accuracy.labels, 'claim or key-fact label'],
      [accuracy.predictions, 'judge output'],
      [accuracy.systemOutputs, 'system output'],
    ]);
    parts.push(
      counts.length > 0 ? `claims and key facts: ${counts.join(', ')} added` : 'claims and key facts: nothing new',
    );
  }
  if (result.scaffold)
    parts.push(
      `${plural(result.scaffold.scaffolds, 'scaffold version')} and ${plural(result.scaffold.alignments, 'alignment')} added`,
    );
  return parts.length > 0 ? parts : ['nothing new'];
}

function place(x: { file: string; line?: number; record?: number; summaryId: string }): string {
  return `${x.file}${x.line !== undefined ? `, line ${x.line}` : x.record !== undefined ? `, record ${x.record}` : ''} (${x.summaryId})`;
}

/** One record's judge output left out, in words: where, which field, why. */
export function describeSkippedPredictions(x: SkippedPredictions): string {
  return `${place(x)}: ${x.field} ${x.reason ?? `has ${x.found} predictions, expected ${x.expected} (one per sentence)`}`;
}

/** One person's annotation left out, in words: where, which field, why. */
export function describeSkippedLabels(x: SkippedLabels): string {
  return `${place(x)}: ${x.field} ${x.reason}`;
}
