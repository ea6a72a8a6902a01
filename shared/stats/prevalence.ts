/**
 * Rogan–Gladen correction of an apparent prevalence (Rogan & Gladen 1978):
 * π = (q + Sp − 1) / (Se + Sp − 1), clipped to [0, 1], where q is the share of units the
 * classifier calls positive, Se its sensitivity (recall on positives) and Sp its specificity.
 * Undefined (null) when Se + Sp − 1 ≤ 0 (the classifier is no better than chance) or when an
 * input is undefined.
 */
export function roganGladen(
  apparent: number | null,
  sensitivity: number | null,
  specificity: number | null,
): number | null {
  if (apparent === null || sensitivity === null || specificity === null) return null;
  if (![apparent, sensitivity, specificity].every(Number.isFinite)) return null;
  const youden = sensitivity + specificity - 1;
  if (youden <= 0) return null;
  const corrected = (apparent + specificity - 1) / youden;
  return corrected < 0 ? 0 : corrected > 1 ? 1 : corrected;
}
