/**
 * A line diff of two versions of a set (claims, key facts, scaffold items as one line each): the
 * longest common subsequence kept, the rest removed from the base or added by the proposal, in
 * the order a reader compares them (removals before the additions that replace them). The common
 * head and tail are matched first; a middle too large for the quadratic table (sets of thousands
 * of items on both sides) is shown as removed, then added.
 */
export type DiffOp = 'same' | 'removed' | 'added';
export interface DiffLine {
  op: DiffOp;
  text: string;
}

/** Cells of the common-subsequence table above which the middle is not matched line by line. */
const MAX_TABLE_CELLS = 4_000_000;

export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const same = (text: string): DiffLine => ({ op: 'same', text });
  return [
    ...before.slice(0, head).map(same),
    ...diffMiddle(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map(same),
  ];
}

function diffMiddle(before: readonly string[], after: readonly string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  if ((n + 1) * (m + 1) > MAX_TABLE_CELLS) {
    return [
      ...before.map((text): DiffLine => ({ op: 'removed', text })),
      ...after.map((text): DiffLine => ({ op: 'added', text })),
    ];
  }
  // common[i * (m + 1) + j]: length of the longest common subsequence of before[i..] and after[j..].
  const common = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => common[i * (m + 1) + j]!;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * (m + 1) + j] = before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      lines.push({ op: 'same', text: before[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || at(i + 1, j) >= at(i, j + 1))) {
      lines.push({ op: 'removed', text: before[i]! });
      i++;
    } else {
      lines.push({ op: 'added', text: after[j]! });
      j++;
    }
  }
  return lines;
}
