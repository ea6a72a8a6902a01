/**
 * API keys never reach a stored or shown text. Every error message from an endpoint passes
 * through here before it is stored, shown in a status or printed: the known key is replaced, and
 * so is anything shaped like a bearer token or an OpenAI-style key (an endpoint may echo headers).
 */
export const REDACTED = '[redacted]';

const PATTERNS: RegExp[] = [
  /(Bearer\s+)[^\s"',;]+/gi,
  /\bsk-[A-Za-z0-9_*-]{8,}/g,
  /((?:api[-_ ]?key|authorization|x-api-key)["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi,
];

/**
 * Only the known secrets replaced, nothing by shape: for text that is the person's own data (an
 * export of documents and labels), where a sentence that mentions "Bearer" must stay as it is.
 */
export function redactKnown(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "keys" (e.g. "x") would shred every message; they are not secrets worth the name.
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

export function redact(text: string, secrets: ReadonlyArray<string | null | undefined> = []): string {
  let out = redactKnown(text, secrets);
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, keep?: unknown) => (typeof keep === 'string' && match.startsWith(keep) ? `${keep}${REDACTED}` : REDACTED));
  }
  return out;
}
