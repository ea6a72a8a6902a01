/**
 * Linear scales and "nice" ticks for the hand-written SVG charts (no chart library: the CSP
 * allows no eval and no inline <style>, and React-rendered SVG keeps every label as text).
 */

export interface LinearScale {
  (value: number): number;
  domain: readonly [number, number];
  range: readonly [number, number];
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = ((value: number) =>
    span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0)) as LinearScale;
  scale.domain = domain;
  scale.range = range;
  return scale;
}

/** A step of 1, 2 or 5 × 10^k giving about `count` intervals over [lo, hi]. */
export function niceStep(lo: number, hi: number, count = 5): number {
  const span = Math.abs(hi - lo);
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** Ticks at multiples of the nice step inside [lo, hi] (rounded so 0.30000000000000004 is 0.3). */
export function ticks(lo: number, hi: number, count = 5): number[] {
  const step = niceStep(lo, hi, count);
  const decimals = decimalsFor(step);
  const out: number[] = [];
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  for (let i = first; i <= last; i += 1) out.push(Number((i * step).toFixed(decimals)));
  return out;
}

/** [lo, hi] widened outwards to multiples of the nice step. */
export function niceDomain(lo: number, hi: number, count = 5): [number, number] {
  if (lo === hi) return [lo - 0.5, hi + 0.5];
  const step = niceStep(lo, hi, count);
  const decimals = decimalsFor(step);
  return [
    Number((Math.floor(lo / step + 1e-9) * step).toFixed(decimals)),
    Number((Math.ceil(hi / step - 1e-9) * step).toFixed(decimals)),
  ];
}

export function decimalsFor(step: number): number {
  if (!(step > 0)) return 0;
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** Tick labels with as many decimals as the step needs; a true minus sign; no "-0". */
export function tickFormatter(values: readonly number[]): (value: number) => string {
  const step = values.length > 1 ? Math.abs(values[1]! - values[0]!) : 1;
  const decimals = decimalsFor(step);
  return (value) => {
    const text = value.toFixed(decimals);
    if (Number(text) === 0) return (0).toFixed(decimals);
    return text.replace('-', '−');
  };
}

/** A rough text width for layout (SVG text cannot be measured before it is drawn). */
export function textWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.58;
}

/** A long label cut to fit, with an ellipsis (the full text goes in a <title>). */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(1, maxChars - 1))}…`;
}
