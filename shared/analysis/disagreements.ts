/**
 * Sentence-level disagreement lists for reading the human sample: where a judge's hard label
 * differs from the usable human label, and where the judges split among themselves. Lists cover
 * the annotated summaries (sorted by doc_id, summary_id, sentence); the split count is also
 * given over every analysed summary.
 */
import { compareByDocThenSummary, predictionOf, usableHumanValue } from './prepare';
import type { AnalysisSummary, AnalysisUnit, DisagreementReport, HumanJudgeDisagreement, JudgeSplit } from './types';

function split(unit: AnalysisUnit, judges: string[]): { faithful: string[]; unfaithful: string[] } | null {
  const faithful: string[] = [];
  const unfaithful: string[] = [];
  for (const judge of judges) {
    const hard = predictionOf(unit, judge)?.hard ?? null;
    if (hard === 1) faithful.push(judge);
    else if (hard === 0) unfaithful.push(judge);
  }
  return faithful.length > 0 && unfaithful.length > 0 ? { faithful, unfaithful } : null;
}

export function computeDisagreements(
  analysed: AnalysisSummary[],
  annotated: AnalysisSummary[],
  judges: string[],
): DisagreementReport {
  const ordered = [...annotated].sort(compareByDocThenSummary);
  const humanVsJudge: [string, HumanJudgeDisagreement[]][] = judges.map((judge) => [judge, []]);
  const judgesSplit: JudgeSplit[] = [];
  for (const summary of ordered) {
    const units = [...summary.units].sort((a, b) => a.index - b.index);
    for (const unit of units) {
      const truth = usableHumanValue(unit);
      if (truth !== null) {
        for (const [judge, list] of humanVsJudge) {
          const hard = predictionOf(unit, judge)?.hard ?? null;
          if (hard !== null && hard !== truth) {
            list.push({
              summary_id: summary.summaryId,
              doc_id: summary.docId,
              sentence: unit.index,
              human: truth === 1 ? 'faithful' : 'unfaithful',
              judge: hard,
            });
          }
        }
      }
      const groups = split(unit, judges);
      if (groups) {
        judgesSplit.push({
          summary_id: summary.summaryId,
          doc_id: summary.docId,
          sentence: unit.index,
          human: unit.human,
          faithful_judges: groups.faithful,
          unfaithful_judges: groups.unfaithful,
        });
      }
    }
  }
  let splitAll = 0;
  for (const summary of analysed) for (const unit of summary.units) if (split(unit, judges)) splitAll += 1;
  return { human_vs_judge: Object.fromEntries(humanVsJudge), judges_split: judgesSplit, n_judges_split_all: splitAll };
}
