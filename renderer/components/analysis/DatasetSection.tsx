/**
 * One dataset's audit, in the paper's order: what it rests on (summaries, human sample, p̂, ε₀),
 * then what holds at any summary length (judge error on every annotated sentence, agreement),
 * then the diagnostic on summaries with ≥ 2 sentences: Table 2 (min vs mean), the ε̂ figure and the verdict per judge, composition, the hidden-bias
 * simulation, reliability and calibration, the suspicious list and the disagreement lists.
 */
import type { DatasetAnalysis } from '../../../shared/analysis/types';
import { AccuracySection } from '../accuracy/AccuracyTables';
import { ScaffoldAnalysis } from '../scaffold/ScaffoldAnalysis';
import { AgreementTable } from './AgreementTable';
import { AllUnitsTable } from './AllUnitsTable';
import { JudgeErrorTypesTable } from './JudgeErrorTypesTable';
import { safeFileName } from '../../charts/export';
import { CalibrationChart } from './CalibrationChart';
import { ChartFrame } from './ChartFrame';
import { CompositionChart } from './CompositionChart';
import { CorrelationTable } from './CorrelationTable';
import { DatasetFacts } from './DatasetHeader';
import { Disagreements } from './Disagreements';
import { EpsilonChart } from './EpsilonChart';
import { fixed, formatCount, formatEstimate, nEquals, num } from '../../format';
import { epsilon0Words, noHumanSentenceLabelsWords, noSentenceJudgesWords, type MissingSentenceInput } from './format';
import { HiddenBiasChart } from './HiddenBiasChart';
import { ReliabilityTable } from './ReliabilityTable';
import { SuspiciousList } from './SuspiciousList';
import { VerdictTable } from './VerdictTable';

/** `sampled`: the dataset's sampled summaries (the project's counts), null when not known. */
export function DatasetSection({
  dataset,
  bootstrap,
  index,
  sampled = null,
}: {
  dataset: DatasetAnalysis;
  bootstrap: number;
  index: number;
  sampled?: number | null;
}) {
  const hasJudges = dataset.judge_names.length > 0;
  const hasHumans = dataset.human.n_usable > 0;
  const missing: MissingSentenceInput = {
    sampled,
    peopleAccuracySummaries: dataset.accuracy?.sources.human?.n_summaries ?? 0,
    accuracyJudges: new Set([
      ...Object.keys(dataset.accuracy?.claim_judges ?? {}),
      ...Object.keys(dataset.accuracy?.keyfact_judges ?? {}),
    ]).size,
  };
  const file = (what: string) => safeFileName('loupe', dataset.dataset, what);
  const headingId = `analysis-dataset-${index}`;

  return (
    <section
      className="panel analysis-dataset"
      aria-labelledby={headingId}
      data-testid="dataset-section"
      data-dataset={dataset.dataset}
    >
      <h2 id={headingId}>
        <span className="muted">Dataset</span> {dataset.dataset}
      </h2>
      <DatasetFacts dataset={dataset} />

      <h3>Judge error on every annotated sentence (any summary length)</h3>
      <AllUnitsTable allUnits={dataset.all_units} judges={dataset.judge_names} />
      <JudgeErrorTypesTable errorTypes={dataset.error_types} judges={dataset.judge_names} />
      <h3>Agreement</h3>
      <AgreementTable agreement={dataset.agreement} />

      {dataset.accuracy && (
        <>
          <h3>
            Summarization accuracy: faithfulness, completeness, conciseness (claims and key facts, any summary length)
          </h3>
          <AccuracySection accuracy={dataset.accuracy} />
        </>
      )}

      {dataset.scaffold && (
        <>
          <h3>Semantic Scaffold: what each summary keeps of its document (FPS, QPS, EPS), and the model comparison</h3>
          <ScaffoldAnalysis scaffold={dataset.scaffold} dataset={dataset.dataset} />
        </>
      )}

      {dataset.n_summaries === 0 ? (
        <p className="analysis-empty" data-testid="empty-summaries">
          No summary with two or more sentences: the averaging-bias diagnostic does not apply here (with one sentence,
          min, mean and max coincide). Judge error and agreement above take every sentence.
        </p>
      ) : (
        <>
          {!hasJudges && (
            <p className="analysis-empty" data-testid="empty-judges">
              {noSentenceJudgesWords(missing)}
            </p>
          )}
          {!hasHumans && (
            <p className="analysis-empty" data-testid="empty-humans">
              {noHumanSentenceLabelsWords(dataset.human, missing)}
            </p>
          )}

          {hasJudges && (
            <>
              <h3>Min vs mean aggregation (Table 2)</h3>
              <CorrelationTable dataset={dataset} bootstrap={bootstrap} />

              <h3>The averaging-bias diagnostic (summaries with ≥ 2 sentences)</h3>
              <VerdictTable dataset={dataset} />
              <ChartFrame
                fileName={file('epsilon')}
                testId="figure-epsilon"
                caption={
                  <>
                    ε̂ per judge (share of sentences where its hard label differs from the human label) with its 95%
                    bootstrap interval, against {epsilon0Words(dataset)}. n under each judge = sentences compared.
                  </>
                }
              >
                <EpsilonChart dataset={dataset} bootstrap={bootstrap} />
              </ChartFrame>
            </>
          )}

          <h3>Summary composition (App. C.3)</h3>
          <ChartFrame
            fileName={file('composition')}
            testId="figure-composition"
            caption={
              <>
                Shares of all-faithful, mixed and all-unfaithful summaries. Only mixed summaries tell min from mean: the
                mixed share is the diagnostic’s power. n = humans {formatCount(dataset.composition.human.n)}, judges on
                annotated {formatCount(dataset.composition.judges.annotated.n)}, judges on all{' '}
                {formatCount(dataset.composition.judges.all.n)} summaries.
              </>
            }
          >
            <CompositionChart dataset={dataset} />
          </ChartFrame>

          <h3>Hidden bias (simulation, Fig. 3)</h3>
          {dataset.hidden_bias ? (
            <ChartFrame
              fileName={file('hidden-bias')}
              testId="figure-hidden-bias"
              caption={
                <>
                  A fraction y of {formatCount(dataset.hidden_bias.n_simulated_summaries)} simulated summaries (this
                  dataset’s lengths, p̂ = {fixed(dataset.hidden_bias.p_hat, 3)}) is labelled by the averaging rule, the
                  rest by the minimum rule. A small mean − min gap does not certify unbiased labels.
                </>
              }
            >
              <HiddenBiasChart dataset={dataset} />
            </ChartFrame>
          ) : (
            <p className="muted" data-testid="hidden-bias-none">
              Not simulated: it needs p̂ from human labels.
            </p>
          )}

          {hasJudges && (
            <>
              <h3>Reliability, corrected rate and calibration</h3>
              <ReliabilityTable dataset={dataset} />
              <div className="chart-row">
                {dataset.judge_names.map((judge) => {
                  const calibration = dataset.judges[judge]!.calibration;
                  if (!calibration) return null;
                  return (
                    <ChartFrame
                      key={judge}
                      fileName={file(`calibration-${judge}`)}
                      testId="figure-calibration"
                      caption={
                        <>
                          Reliability of <span className="judge-name-inline">{judge}</span>’s soft labels: mean
                          predicted P(faithful) vs observed share faithful per bin,{' '}
                          {nEquals(calibration.brier.n, 'sentence')}. Brier{' '}
                          {formatEstimate(calibration.brier, { n: 'never' })}, ECE {num(calibration.ece.value)}.
                        </>
                      }
                    >
                      <CalibrationChart judge={judge} dataset={dataset.dataset} calibration={calibration} />
                    </ChartFrame>
                  );
                })}
              </div>

              <h3>Suspicious summaries (§6, App. C.2)</h3>
              <SuspiciousList dataset={dataset} />

              <h3>Disagreements</h3>
              <Disagreements dataset={dataset} />
            </>
          )}
        </>
      )}
    </section>
  );
}
