/** Small wording helpers of the Review view. */
import { plural } from '../../format';

export function seconds(ms: number): string {
  return `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
}

/** "2 decisions taken in < 2 s (blind time): implausibly fast". */
export function fastWords(n: number, fastMs: number): string {
  return `${plural(n, 'decision')} taken in < ${seconds(fastMs)} (blind time, first decision): implausibly fast, worth a second look`;
}

export function pct(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`;
}

export const globalWord = (label: 0 | 1 | null): string =>
  label === null ? '—' : label === 1 ? '1 (faithful)' : '0 (unfaithful)';
