/**
 * Every import format, and detection: each parser scores the files 0 (no), 1 (possibly) or
 * 2 (certainly); the single parser with the highest score > 0 wins, a tie is ambiguous and the
 * caller asks for `--as KIND`.
 */
import { cogensummParser } from './cogensumm';
import { faithbenchParser } from './faithbench';
import { frankParser } from './frank';
import { haluevalParser } from './halueval';
import { labelsParser } from './labels';
import { predictionsParser } from './predictions';
import { realsummParser } from './realsumm';
import { accuracyParser } from './accuracy-jsonl';
import { scaffoldAlignmentsParser, scaffoldParser } from './scaffold-jsonl';
import { summariesParser } from './summaries';
import { summeditsParser } from './summedits';
import { tofuevalParser } from './tofueval';
import type { FileHead, FormatParser, ImportKind } from './types';
import { xsumfaithParser } from './xsumfaith';

export const PARSERS: FormatParser[] = [
  summariesParser,
  labelsParser,
  frankParser,
  faithbenchParser,
  tofuevalParser,
  haluevalParser,
  xsumfaithParser,
  cogensummParser,
  summeditsParser,
  predictionsParser,
  realsummParser,
  accuracyParser,
  scaffoldParser,
  scaffoldAlignmentsParser,
];

export type Detection = { kind: ImportKind } | { ambiguous: ImportKind[] } | { unknown: true };

export function detectKind(files: FileHead[]): Detection {
  const scored = PARSERS.map((parser) => ({ kind: parser.kind, score: parser.sniff(files) }));
  const best = Math.max(...scored.map((s) => s.score));
  if (best <= 0) return { unknown: true };
  const top = scored.filter((s) => s.score === best).map((s) => s.kind);
  return top.length === 1 ? { kind: top[0]! } : { ambiguous: top };
}

export function parserFor(kind: ImportKind): FormatParser {
  const parser = PARSERS.find((p) => p.kind === kind);
  if (!parser) throw new Error(`No parser for import kind "${kind}"`);
  return parser;
}
