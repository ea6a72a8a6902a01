/** Anonymised names for the review reveal: judges by letter in creation order, annotators by number. */

/** 0 → "A", 25 → "Z", 26 → "AA", … */
export function letters(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

export const anonymousJudge = (judgesByCreation: readonly string[], name: string): string =>
  `Judge ${letters(judgesByCreation.indexOf(name))}`;
export const anonymousAnnotator = (annotatorsByCreation: readonly string[], name: string): string =>
  `Annotator ${annotatorsByCreation.indexOf(name) + 1}`;
