/**
 * Counts as the user's locale writes them ("5,060"). One shared formatter: `toLocaleString()`
 * builds a new one on every call, which showed up in the label keypress's profile (issue 9 item 5).
 */
const counts = new Intl.NumberFormat();

export function formatCount(n: number): string {
  return counts.format(n);
}
