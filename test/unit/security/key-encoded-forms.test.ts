/**
 * The API key is redacted in every form that decodes to it, not only as written: JSON string
 * escapes (\u0073k-…, \/), percent-encoding (%73k-…, %2573 twice encoded), and mixtures, before an
 * answer's raw text is stored in task_results (the project file people pass around), exported
 * or shown. One test per form, and one through the task engine against the mock endpoint.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redact, redactKnown, REDACTED } from '../../../shared/judges/redact';
import { createJsonTaskRun } from '../../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../../electron/core/tasks/model-config';
import { sentenceOf, wordsAnswer, wordsKind, wordsOf } from '../../mock-openai/words-kind';
import { FAST_TUNING, judgeProject, until } from '../../mock-openai/project';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import { tempDir } from '../../helpers/tmp';

const mock = await mockOpenAIForFile();
const KEY = 'sk-Loupe/Key+9fAb_cdEF';
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const uEscape = (c: string, upper = false) =>
  `\\u${upper ? hex(c.charCodeAt(0), 4).toUpperCase() : hex(c.charCodeAt(0), 4)}`;
const percent = (c: string, upper = true) =>
  [...new TextEncoder().encode(c)].map((b) => `%${upper ? hex(b, 2).toUpperCase() : hex(b, 2)}`).join('');

const FORMS: Array<[string, string]> = [
  ['as written', KEY],
  ['first character as a JSON escape', `${uEscape('s')}${KEY.slice(1)}`],
  ['every character as a JSON escape', [...KEY].map((c) => uEscape(c)).join('')],
  ['JSON escapes with upper-case hex', [...KEY].map((c) => uEscape(c, true)).join('')],
  ['JSON short escape (\\/)', KEY.replace('/', '\\/')],
  [
    'JSON escapes inside a JSON string (double backslashes)',
    JSON.stringify([...KEY].map((c) => uEscape(c)).join('')).slice(1, -1),
  ],
  ['percent-encoded as a URL component', encodeURIComponent(KEY)],
  ['every byte percent-encoded, lower-case hex', [...KEY].map((c) => percent(c, false)).join('')],
  ['percent-encoded twice', encodeURIComponent(encodeURIComponent([...KEY].map((c) => percent(c)).join('')))],
  [
    'mixed: literal, JSON escape and percent-encoding in turn',
    [...KEY].map((c, i) => (i % 3 === 0 ? c : i % 3 === 1 ? uEscape(c) : percent(c))).join(''),
  ],
];

/** Everything a reader might do to the stored text to get the key back. */
function decodings(text: string): string[] {
  const out = [text];
  for (let round = 0; round < 3; round += 1) {
    for (const t of [...out]) {
      try {
        out.push(JSON.parse(`"${t}"`) as string);
      } catch {
        // not a JSON string body
      }
      try {
        out.push(decodeURIComponent(t));
      } catch {
        // not percent-encoded
      }
    }
  }
  return out;
}

describe('the known key in every form that decodes to it', () => {
  it.each(FORMS)('%s: replaced, and no decoding of the result gives the key', (_name, form) => {
    // The form really does decode to the key (the test would prove nothing otherwise).
    expect(decodings(form)).toContain(KEY);
    const text = `{"faithful": 1, "note": "key ${form} echoed"}`;
    for (const out of [redactKnown(text, [KEY]), redact(text, [KEY])]) {
      expect(out).toBe(`{"faithful": 1, "note": "key ${REDACTED} echoed"}`);
      expect(decodings(out).some((d) => d.includes(KEY))).toBe(false);
    }
  });

  it('text that only resembles the key is left as it is', () => {
    const text = `sk-Loupe/Key+9fAb_cdEX and \\u0073k-other and %73k`;
    expect(redactKnown(text, [KEY])).toBe(text);
  });
});

describe('the raw answer stored by the task engine', () => {
  const dir = tempDir('loupe-key-forms-');
  it('holds no form of the key when the endpoint writes it with JSON escapes or percent-encoding', async () => {
    const p = await judgeProject(dir, 'forms', 2);
    const escaped = [...KEY].map((c) => uEscape(c)).join('');
    mock.setResponder((req) => {
      const sentence = sentenceOf(req);
      if (sentence.includes('(0.0)')) return { type: 'answer', content: `{"words": ["${escaped}"]}` };
      if (sentence.includes('(0.1)'))
        return {
          type: 'answer',
          content: `see https://example.test/?k=${encodeURIComponent(KEY)} ${JSON.stringify({ words: wordsOf(sentence) })}`,
        };
      return wordsAnswer(req);
    });
    const units = p.repo.judges.selectUnits(null, false).map((u) => ({ unitId: u.unitId, sentence: u.sentence }));
    const run = createJsonTaskRun({
      kind: wordsKind,
      config: ModelConfigSchema.parse({ baseUrl: mock.url, model: 'mock-words-forms', retries: 0, timeoutS: 5 }),
      tasks: p.repo.tasks,
      apiKey: KEY,
      tuning: FAST_TUNING,
      items: units,
      itemKey: (u) => `unit:${u.unitId}`,
      resolve: (u) => ({ sentence: u.sentence }),
    });
    run.start();
    await Promise.race([
      run.finished,
      until(() => run.progress().state === 'paused', 20_000, 'a pause').then(() => undefined),
    ]);
    const stored = p.db
      .prepare(`SELECT raw, error_message AS message FROM task_results WHERE kind = 'test-words' ORDER BY id`)
      .all() as Array<{ raw: string | null; message: string | null }>;
    expect(stored.length).toBe(units.length);
    const texts = stored.flatMap((r) => [r.raw ?? '', r.message ?? '']);
    expect(texts.filter((t) => t.includes(REDACTED))).toHaveLength(2);
    expect(texts.some((t) => decodings(t).some((d) => d.includes(KEY)))).toBe(false);
    p.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(p.path).toString('latin1');
    expect(file.includes(escaped) || file.includes(encodeURIComponent(KEY))).toBe(false);
    p.close();
  });
});
