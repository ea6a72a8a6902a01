/** Detection for formats that can be recognised one file at a time. */
import type { FileHead, FormatParser } from './types';

type Score = 0 | 1 | 2;

/** sniff = the best score of any file; select = every file that scores at all. */
export function detectPerFile(score: (file: FileHead) => Score): Pick<FormatParser, 'sniff' | 'select'> {
  return {
    sniff(files) {
      let best: Score = 0;
      for (const f of files) best = Math.max(best, score(f)) as Score;
      return best;
    },
    select(files) {
      return files.filter((f) => score(f) > 0).map((f) => f.path);
    },
  };
}
