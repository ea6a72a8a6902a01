/** Contiguous ranges [from, to) covering 0..total, as equal as possible, in order, none empty. */
export function splitRange(total: number, parts: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let p = 0; p < parts; p += 1) {
    const from = Math.floor((total * p) / parts);
    const to = Math.floor((total * (p + 1)) / parts);
    if (to > from) ranges.push([from, to]);
  }
  return ranges;
}
