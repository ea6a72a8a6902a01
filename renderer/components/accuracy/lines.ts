/** The lines a key fact can be conveyed by, numbered as on screen: sentence "2", claim "2.1". */
import type { KeyFactAnnotation } from '../../../shared/contract/keyfacts';
import { claimNumber } from '../../state/claimsAndKeyFacts';

export interface ConveyLine {
  kind: 'sentence' | 'claim';
  id: number;
  label: string;
  text: string;
}

export function conveyLines(facts: KeyFactAnnotation): ConveyLine[] {
  const lines: ConveyLine[] = [];
  for (const sentence of facts.sentences) {
    lines.push({ kind: 'sentence', id: sentence.unitId, label: String(sentence.index + 1), text: sentence.text });
    facts.claims
      .filter((claim) => claim.sentenceUnitId === sentence.unitId)
      .forEach((claim, i) =>
        lines.push({ kind: 'claim', id: claim.id, label: claimNumber(sentence.index, i + 1), text: claim.text }),
      );
  }
  return lines;
}

/** "sentence 1, claim 2.1" for a fact's conveyed-by. */
export function conveyedText(facts: KeyFactAnnotation, conveyed: { claims: number[]; sentences: number[] }): string {
  const lines = conveyLines(facts);
  const names = lines
    .filter((line) =>
      line.kind === 'sentence' ? conveyed.sentences.includes(line.id) : conveyed.claims.includes(line.id),
    )
    .map((line) => `${line.kind} ${line.label}`);
  return names.join(', ');
}
