/** The offline baseline rule (shared/judges/baseline.ts), case by case as docs/judges.md states it. */
import { describe, expect, it } from 'vitest';
import { analyseDocument, baselineVerdict, runBaseline, stem } from '../../../shared/judges/baseline';
import { BaselineConfigSchema } from '../../../shared/judges/config';
import { NEWS_DOCUMENT } from '../../helpers/project';

const config = BaselineConfigSchema.parse({ kind: 'baseline' });
const judge = (sentence: string, document = NEWS_DOCUMENT) => runBaseline(document, sentence, config);

describe('baseline judge (loupe-baseline-1)', () => {
  it('a supported paraphrase is faithful, soft = coverage', () => {
    const v = judge('The Springfield council approved a budget on Tuesday.');
    expect(v).toMatchObject({ hard: 1 });
    expect(v.soft).toBeGreaterThanOrEqual(0.5);
    expect(v.rationale).toMatch(/content words found in document sentences/);
  });

  it('numbers must occur in the document (thousands commas ignored)', () => {
    expect(judge('The plan adds 13 million dollars for schools.')).toMatchObject({
      hard: 0,
      soft: 0,
      rationale: 'number "13" is not in the document',
    });
    expect(judge('The plan adds 12 million dollars for schools.')).toMatchObject({ hard: 1 });
    expect(judge('Taxes would rise by 3.5 percent.')).toMatchObject({ hard: 1 });
    expect(runBaseline('It cost 1,000 dollars.', 'It cost 1000 dollars.', config)).toMatchObject({ hard: 1 });
  });

  it('date words must occur in the document, in any case', () => {
    expect(judge('The council approved the budget on Wednesday.')).toMatchObject({
      hard: 0,
      rationale: 'date word "Wednesday" is not in the document',
    });
    expect(judge('the budget takes effect in march.')).toMatchObject({ hard: 0 });
    expect(judge('the budget takes effect in january.')).toMatchObject({ hard: 1 });
    // "may" is a modal verb far more often than a month: not a date word.
    expect(judge('Taxes may rise by 3.5 percent.')).toMatchObject({ hard: 1 });
  });

  it('capitalised names after the first word must occur in the document', () => {
    expect(judge('Mayor John Smith said the vote was a victory.')).toMatchObject({
      hard: 0,
      rationale: 'name "John" is not in the document',
    });
    expect(judge("Mayor Jane Smith's vote was a victory for families.")).toMatchObject({ hard: 1 });
    // The first word is capitalised in any sentence: it is not taken for a name.
    expect(judge('Officials approved a new budget for schools.')).toMatchObject({ hard: 1 });
  });

  it('low content-word overlap with the best passage is unfaithful', () => {
    const v = judge('The zoo acquired three penguins and a walrus yesterday.');
    expect(v.hard).toBe(0);
    expect(v.soft).toBeLessThan(0.5);
    expect(v.rationale).toMatch(/^only \d+% of \d+ content words/);
  });

  it('a sentence without content words (a connective) is faithful', () => {
    expect(judge('In summary,')).toMatchObject({ hard: 1, soft: 1 });
  });

  it('hard is 1 exactly when soft reaches the threshold; deterministic', () => {
    const sentences = [
      'The plan adds money for schools.',
      'Opponents argued about taxes.',
      'Penguins dance.',
      'The mayor spoke about families and victory.',
    ];
    const doc = analyseDocument(NEWS_DOCUMENT, 3);
    for (const s of sentences) {
      const v = baselineVerdict(doc, s, config);
      if (v.soft > 0) expect(v.hard).toBe(v.soft >= 0.5 ? 1 : 0);
      expect(baselineVerdict(doc, s, config)).toEqual(v);
    }
    expect(baselineVerdict(doc, 'Penguins dance.', { coverageThreshold: 0 }).hard).toBe(1);
  });

  it('stems crudely', () => {
    expect(['approved', 'approves', 'approving', "council's", 'schools', 'class'].map(stem)).toEqual([
      'approv',
      'approv',
      'approv',
      'council',
      'school',
      'class',
    ]);
  });
});
