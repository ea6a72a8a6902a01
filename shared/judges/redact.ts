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

/** A hex digit in either case: "a" → "[aA]". */
const hexDigit = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
const hexOf = (n: number, width: number) => [...n.toString(16).padStart(width, '0')].map(hexDigit).join('');
const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** JSON's short escapes, for the characters that have one. */
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * Every way one character can be written so that decoding gives it back: itself, a JSON escape
 * (\u0073, \/; any run of backslashes, for JSON inside JSON), percent-encoding of its UTF-8 bytes
 * (%73; %2573 when encoded twice), in either case of hex digit.
 */
function characterForms(c: string): string {
  const forms = [escapeRegExp(c)];
  const units = [...Array(c.length).keys()].map((i) => c.charCodeAt(i));
  forms.push(units.map((u) => `\\\\+u${hexOf(u, 4)}`).join(''));
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) forms.push(`\\\\+${escapeRegExp(short)}`);
  forms.push([...new TextEncoder().encode(c)].map((b) => `%(?:25)*${hexOf(b, 2)}`).join(''));
  return `(?:${forms.join('|')})`;
}

const knownPatterns = new Map<string, RegExp>();

/** A pattern matching `secret` in every form that decodes to it, mixed freely character by character. */
function encodedFormsOf(secret: string): RegExp {
  let pattern = knownPatterns.get(secret);
  if (!pattern) {
    pattern = new RegExp([...secret].map(characterForms).join(''), 'g');
    knownPatterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * Only the known secrets replaced, nothing by shape: for text that is the person's own data (an
 * export of documents and labels), where a sentence that mentions "Bearer" must stay as it is.
 * A secret is replaced in every form that decodes to it (JSON escapes, percent-encoding, mixed):
 * an answer that spells the key \u0073k-… gives the key back to whoever decodes the stored text.
 */
export function redactKnown(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    // Very short "keys" (e.g. "x") would shred every message; they are not secrets worth the name.
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED).replace(encodedFormsOf(secret), REDACTED);
  }
  return out;
}

export function redact(text: string, secrets: ReadonlyArray<string | null | undefined> = []): string {
  let out = redactKnown(text, secrets);
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, keep?: unknown) =>
      typeof keep === 'string' && match.startsWith(keep) ? `${keep}${REDACTED}` : REDACTED,
    );
  }
  return out;
}
