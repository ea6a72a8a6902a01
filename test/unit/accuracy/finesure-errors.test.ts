/**
 * FineSurE's fact-checking error types. FRANK's summaries have no claims, so the
 * per-sentence category of FineSurE's fact-checking raw data stays on the judge's sentence
 * prediction as a note after its raw answer, with the card's type it maps to; a claim-level
 * record (Loupe's accuracy format) that gives only FineSurE's name gets the mapped error type, the
 * name kept beside it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINESURE_ERROR_TYPE, fineSurEErrorType } from '../../../shared/accuracy/domain';
import { accuracyParser } from '../../../shared/formats/accuracy-jsonl';
import { FRANK_JUDGE, frankParser } from '../../../shared/formats/frank';
import { sample, source, text } from '../import/helpers';

const RAW = sample('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json');

describe('FineSurE error types', () => {
  it('maps FineSurE and FRANK names to the card types whatever the case and spacing', () => {
    expect(fineSurEErrorType('entity error')).toBe('entity');
    expect(fineSurEErrorType('Out-of-context error')).toBe('not_in_source');
    expect(fineSurEErrorType('predicate_error')).toBe('relation');
    expect(fineSurEErrorType('OutE')).toBe('not_in_source');
    expect(fineSurEErrorType('no error')).toBeNull();
    expect(fineSurEErrorType('made-up error')).toBeUndefined();
  });

  it("puts each FRANK sentence's FineSurE category on the judge's sentence prediction, mapped", () => {
    const batch = frankParser.parse([source(RAW)], { dataset: 'frank-small' });
    const records = readFileSync(RAW, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { model: string; doc_id: string; pred_faithfulness_error_type: string[] });
    const preds = batch.predictions.filter((p) => p.judge === FRANK_JUDGE);
    expect(preds.length).toBeGreaterThan(0);
    let checked = 0;
    for (const p of preds) {
      const category = /FineSurE error category of sentence (\d+): "([^"]+)" \(error type: ([a-z_]+)\)$/.exec(
        p.raw ?? '',
      );
      expect(category, p.raw ?? '').not.toBeNull();
      expect(Number(category![1])).toBe(p.sentenceIndex + 1);
      const mapped = FINESURE_ERROR_TYPE[category![2]!];
      expect(category![3]).toBe(mapped === null ? 'none' : mapped);
      // The category is the file's, for that sentence; an error category goes with a hard 0.
      expect(records.some((r) => r.pred_faithfulness_error_type[p.sentenceIndex] === category![2])).toBe(true);
      expect(p.hard).toBe(category![2] === 'no error' ? 1 : 0);
      checked += 1;
    }
    expect(preds.some((p) => /"entity error" \(error type: entity\)$/.test(p.raw ?? ''))).toBe(true);
    expect(preds.some((p) => /"out-of-context error" \(error type: not_in_source\)$/.test(p.raw ?? ''))).toBe(true);
    expect(checked).toBe(preds.length);
    // The raw answer itself is kept first, as before.
    expect(preds[0]!.raw).toMatch(/^```json/);
  });

  it('a claim-level record with only a FineSurE name gets its card type; the name is kept', () => {
    const file = text(
      'claims.jsonl',
      [
        {
          type: 'claim_prediction',
          dataset: 'd',
          summary_id: 's',
          claim_index: 0,
          judge: 'finesure',
          supported: 0,
          source_error_type: 'out-of-context error',
        },
        {
          type: 'claim_prediction',
          dataset: 'd',
          summary_id: 's',
          claim_index: 1,
          judge: 'finesure',
          supported: 0,
          error_type: 'other',
          source_error_type: 'entity error',
        },
        {
          type: 'claim_label',
          dataset: 'd',
          summary_id: 's',
          claim_index: 1,
          annotator: 'a',
          label: 'unsupported',
          source_error_type: 'EntE',
        },
        {
          type: 'claim_label',
          dataset: 'd',
          summary_id: 's',
          claim_index: 2,
          annotator: 'a',
          label: 'unsupported',
          source_error_type: 'strange',
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const acc = accuracyParser.parse([file], {}).accuracy!;
    expect(acc.claimPredictions.map((p) => [p.errorType, p.sourceErrorType])).toEqual([
      ['not_in_source', 'out-of-context error'],
      ['other', 'entity error'], // a given card type wins
    ]);
    expect(acc.claimLabels.map((l) => [l.errorType, l.sourceErrorType])).toEqual([
      ['entity', 'EntE'],
      [null, 'strange'],
    ]);
  });
});
