/**
 * The Semantic Scaffold metrics of one summary as one source aligned it (the Semantic Scaffold paper, Table 3, Table 7,
 * Eq. 1–3, App. B.4), pure. Symbols, per the paper:
 *   M_c, S_c  main and supporting facts in the scaffold; M_s, S_s those preserved in the summary.
 *   Q_c, R_c  main and supporting questions in the scaffold; Q_s, R_s those answered.
 * Only "preserved" (facts, attributes) and "answered" (questions) count as kept: a "partial" fact is
 * not preserved (App. B.4: "partially signals M1 … so M_s = 2").
 *
 *   F          Fact Faithfulness: facts the summary states without distortion / facts it states
 *              = (preserved + partial) / (preserved + partial + misrepresented)
 *   FC         Fact Coverage: preserved facts / scaffold facts (both tiers)
 *   QC         Question Coverage: answered questions / scaffold questions
 *   Main FC    M_s / M_c;  Supp FC  S_s / S_c
 *   Fact Focus summary sentences linked to at least one fact the summary conveys (preserved or
 *              partial; links to misrepresented facts do not count) / summary sentences
 *   FPS        (M_s / M_c) · (1 − S_s / S_c)
 *   QPS        (Q_s / Q_c) · (1 − R_s / R_c)
 *   EPS        preserved attributes / scaffold attributes
 *
 * A metric whose denominator is 0 is undefined (null), never 0: FPS needs M_c > 0 and S_c > 0, QPS
 * Q_c > 0 and R_c > 0. A metric is also null when the source aligned no item of its kind for this
 * summary (it did not do that alignment); within an aligned kind, an item the source left out
 * counts as not kept (the denominators are always the scaffold's, App. G.6); an item left out of
 * `items` altogether (unresolved among several people) is in no numerator or denominator. Fact
 * Focus is null when the source gives no sentence links at all (`linksGiven`: anywhere in the
 * dataset) or the summary has no sentence; a source that links sentences and linked none of this
 * summary's gets 0.0 (zero is not undefined).
 */
import type { AlignmentValue, ScaffoldItemKind, Tier } from './domain';

export const SCAFFOLD_METRICS = ['f', 'fc', 'qc', 'main_fc', 'supp_fc', 'fact_focus', 'fps', 'qps', 'eps'] as const;
export type ScaffoldMetric = (typeof SCAFFOLD_METRICS)[number];
export type ScaffoldScores = Record<ScaffoldMetric, number | null>;
/** What the model comparison compares: the scaffold metrics and App. G.7's holistic direct score (1–10), to show which saturate. */
export const COMPARED_METRICS = [...SCAFFOLD_METRICS, 'direct_score'] as const;
export type ComparedMetric = (typeof COMPARED_METRICS)[number];

export interface ScoredItem {
  kind: ScaffoldItemKind;
  tier: Tier | null;
  /** The source's value, or null when it left the item out. */
  value: AlignmentValue | null;
  sentences: readonly number[];
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

export function scoreSummary(items: readonly ScoredItem[], sentenceCount: number, linksGiven: boolean): ScaffoldScores {
  const facts = items.filter((i) => i.kind === 'fact');
  const questions = items.filter((i) => i.kind === 'question');
  const attributes = items.filter((i) => i.kind === 'attribute');
  const aligned = (xs: readonly ScoredItem[]) => xs.some((x) => x.value !== null);
  const count = (xs: readonly ScoredItem[], pred: (x: ScoredItem) => boolean) => xs.filter(pred).length;
  const kept = (x: ScoredItem) => x.value === 'preserved' || x.value === 'answered';
  const main = (x: ScoredItem) => x.tier === 'main';
  const supporting = (x: ScoredItem) => x.tier === 'supporting';

  const out: ScaffoldScores = {
    f: null,
    fc: null,
    qc: null,
    main_fc: null,
    supp_fc: null,
    fact_focus: null,
    fps: null,
    qps: null,
    eps: null,
  };
  if (aligned(facts)) {
    const Mc = count(facts, main);
    const Sc = count(facts, supporting);
    const Ms = count(facts, (x) => main(x) && kept(x));
    const Ss = count(facts, (x) => supporting(x) && kept(x));
    const stated = count(
      facts,
      (x) => x.value === 'preserved' || x.value === 'partial' || x.value === 'misrepresented',
    );
    out.f = ratio(
      count(facts, (x) => x.value === 'preserved' || x.value === 'partial'),
      stated,
    );
    out.fc = ratio(Ms + Ss, facts.length);
    out.main_fc = ratio(Ms, Mc);
    out.supp_fc = ratio(Ss, Sc);
    out.fps = Mc === 0 || Sc === 0 ? null : (Ms / Mc) * (1 - Ss / Sc);
    const linked = new Set(
      facts.filter((x) => x.value === 'preserved' || x.value === 'partial').flatMap((x) => x.sentences),
    );
    out.fact_focus = linksGiven
      ? ratio([...linked].filter((s) => s >= 0 && s < sentenceCount).length, sentenceCount)
      : null;
  }
  if (aligned(questions)) {
    const Qc = count(questions, main);
    const Rc = count(questions, supporting);
    const Qs = count(questions, (x) => main(x) && kept(x));
    const Rs = count(questions, (x) => supporting(x) && kept(x));
    out.qc = ratio(Qs + Rs, questions.length);
    out.qps = Qc === 0 || Rc === 0 ? null : (Qs / Qc) * (1 - Rs / Rc);
  }
  if (aligned(attributes)) out.eps = ratio(count(attributes, kept), attributes.length);
  return out;
}
