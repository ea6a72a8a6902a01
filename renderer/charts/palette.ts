/**
 * Okabe–Ito colours (distinguishable with the common colour-vision deficiencies). Charts never
 * rely on colour alone: lines differ by dash and marker, bars carry their share as text.
 */
export const PALETTE = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
} as const;

/** Ink, grid and frame of every chart (written as SVG attributes so an exported file keeps them). */
export const CHART_INK = {
  text: '#1d1f21',
  muted: '#5d6166',
  axis: '#6b6f74',
  grid: '#e4e4e0',
  background: '#ffffff',
} as const;

export const CHART_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
