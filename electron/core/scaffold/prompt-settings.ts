/**
 * What App. G of the Semantic Scaffold paper sets for every scaffold prompt: temperature 0.1 (whatever the judge's own
 * decoding says; it enters the config hash) and a system message per kind of prompt.
 */
import type { ChatMessage } from '../tasks/json-kind';
import type { ModelConfig } from '../tasks/model-config';

/** App. G, "Common settings for all prompts". */
export const SCAFFOLD_TEMPERATURE = 0.1;

export const SYSTEM_EXTRACT =
  'You are a precise information extraction assistant. Return valid JSON only. No preamble, no explanation.';
export const SYSTEM_EVALUATE =
  'You are a precise evaluation assistant. Return valid JSON only. No preamble, no explanation.';
export const SYSTEM_SCORE =
  'You are a rigorous and impartial evaluation assistant. Return valid JSON only. No preamble, no explanation.';

/** App. G, "Common settings for all prompts": `response_format: json_object` (the paper's prompts; the combined ones keep their first requests' shape). */
export const JSON_OBJECT = { response_format: { type: 'json_object' } };

/** The messages of a scaffold prompt: its system message, then the filled template. */
export const withSystem =
  (system: string) =>
  (prompt: string): ChatMessage[] => [
    { role: 'system' as const, content: system },
    { role: 'user' as const, content: prompt },
  ];

/** App. G: every scaffold prompt at temperature 0.1. */
export const atScaffoldTemperature = (config: ModelConfig): ModelConfig => ({
  ...config,
  temperature: SCAFFOLD_TEMPERATURE,
});
