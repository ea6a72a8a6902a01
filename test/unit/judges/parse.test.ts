/** The pure judge pieces: answer parsing, soft labels, request body, versions, redaction. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATE,
  EndpointConfigSchema,
  JudgeConfigSchema,
  canonicalJson,
  renderTemplate,
  versionText,
} from '../../../shared/judges/config';
import { parseVerdict } from '../../../shared/judges/parse';
import { redact } from '../../../shared/judges/redact';
import { buildRequestBody } from '../../../shared/judges/request';
import { softLabel, type LogprobToken } from '../../../shared/judges/soft';

describe('parseVerdict', () => {
  const ok = (raw: string, hard: 0 | 1) => {
    const v = parseVerdict(raw);
    expect(v).toMatchObject({ ok: true, hard });
    if (v.ok) expect(raw[v.valueOffset]).toBe(String(hard));
  };

  it('reads the strict form with or without spaces', () => {
    ok('{"faithful": 1}', 1);
    ok('{"faithful":0}', 0);
    ok('  {\n  "faithful" :  1\n}\n', 1);
  });

  it('tolerates code fences, surrounding prose and think blocks', () => {
    ok('```json\n{"faithful": 0}\n```', 0);
    ok('Sure. Here is my verdict: {"faithful": 1} Hope that helps!', 1);
    ok('<think>\nThe document says {"faithful": 0} is wrong… I think {maybe}.\n</think>\n\n{"faithful": 1}', 1);
    ok('Template said {document} and {sentence}; answer: {"faithful": 0}', 0);
    ok('An unclosed { brace, then {"faithful": 1}', 1);
    ok('{"faithful": 1}\nTo repeat: {"faithful": 1}', 1);
  });

  it('keeps everything else as a parse error, never a guess', () => {
    for (const raw of [
      '',
      '   ',
      'faithful',
      'The sentence is faithful.',
      '{"faithful": "1"}',
      '{"faithful": true}',
      '{"faithful": 2}',
      '{"faithful": 0.5}',
      '{"faithful": 1, "reason": "supported"}',
      '{"result": {"faithful": 1}}',
      '[{"faithful": 1}]',
      '{"faithful": 1} but also {"faithful": 0}',
      '{"Faithful": 1}',
      '{"faithful": 1',
      '<think>Still thinking about {"faithful": 1}',
      '{"faithful": 1}<think>cut off',
    ]) {
      const v = parseVerdict(raw);
      expect(v.ok, raw).toBe(false);
    }
    expect(parseVerdict(null)).toEqual({ ok: false, error: 'empty answer' });
  });

  it('a think block that contains an answer does not count', () => {
    expect(parseVerdict('<think>{"faithful": 1}</think> I cannot decide.')).toMatchObject({ ok: false });
  });
});

/** Tokens spelling `pieces` with logprobs; `at` = index of the value token, `p1` = P("1"). */
function tokens(pieces: string[], at: number, p1: number, digitAt: number): LogprobToken[] {
  return pieces.map((token, i) => {
    if (i !== at) return { token, logprob: -0.01, top_logprobs: [{ token, logprob: -0.01 }] };
    const pre = token.slice(0, digitAt);
    const post = token.slice(digitAt + 1);
    const chosen = token[digitAt] === '1' ? p1 : 1 - p1;
    return {
      token,
      logprob: Math.log(chosen * 0.98),
      top_logprobs: [
        { token: `${pre}1${post}`, logprob: Math.log(p1 * 0.98) },
        { token: `${pre}0${post}`, logprob: Math.log((1 - p1) * 0.98) },
        { token: `${pre}10${post}`, logprob: Math.log(0.01) },
        { token: 'x', logprob: Math.log(0.01) },
      ],
    };
  });
}

describe('softLabel (App. B.4)', () => {
  const cases: Array<[string, string[], number, number]> = [
    ['fine', ['{"', 'faith', 'ful', '":', ' ', '1', '}'], 5, 0],
    ['space joined to the digit', ['{"', 'faithful', '":', ' 1', '}'], 3, 1],
    ['colon, space and digit', ['{"', 'faithful', '": 1', '}'], 2, 3],
    ['one chunk', ['{"faithful": 1}'], 0, 13],
    ['digit and brace', ['{"faithful":', ' ', '1}'], 2, 0],
  ];
  for (const [name, pieces, at, digitAt] of cases) {
    it(`finds the value token: ${name}`, () => {
      const content = pieces.join('');
      const v = parseVerdict(content);
      if (!v.ok) throw new Error('unparsed');
      const s = softLabel(content, tokens(pieces, at, 0.8, digitAt), v.valueOffset);
      expect(s.ok).toBe(true);
      if (s.ok) expect(s.soft).toBeCloseTo(0.8, 10);
    });
  }

  it('walks past prose, fences, think blocks and multi-byte characters', () => {
    const pieces = [
      '<think>',
      'Café',
      ' – ',
      'no',
      '</think>',
      '\n',
      '```',
      'json',
      '\n',
      '{"',
      'faithful',
      '":',
      ' ',
      '0',
      '}',
      '\n',
      '```',
    ];
    const content = pieces.join('');
    const v = parseVerdict(content);
    if (!v.ok) throw new Error('unparsed');
    const s = softLabel(content, tokens(pieces, 13, 0.25, 0), v.valueOffset);
    expect(s).toMatchObject({ ok: true });
    if (s.ok) expect(s.soft).toBeCloseTo(0.25, 10);
  });

  it('uses byte lengths when a token is part of a character', () => {
    // "é" split across two byte tokens, as byte-level BPE does.
    const content = 'é {"faithful": 1}';
    const t: LogprobToken[] = [
      { token: 'bytes:\\xc3', logprob: -0.1, bytes: [0xc3], top_logprobs: [] },
      { token: 'bytes:\\xa9', logprob: -0.1, bytes: [0xa9], top_logprobs: [] },
      ...tokens([' {"', 'faithful', '":', ' ', '1', '}'], 4, 0.6, 0),
    ];
    const v = parseVerdict(content);
    if (!v.ok) throw new Error('unparsed');
    const s = softLabel(content, t, v.valueOffset);
    expect(s.ok).toBe(true);
    if (s.ok) expect(s.soft).toBeCloseTo(0.6, 10);
  });

  it('counts the chosen token when the list omits it, and says when nothing fits', () => {
    const content = '{"faithful": 1}';
    const only = [
      { token: '{"faithful": ', logprob: -0.01, top_logprobs: [] },
      { token: '1', logprob: Math.log(0.7), top_logprobs: [{ token: 'a', logprob: -3 }] },
      { token: '}', logprob: -0.01, top_logprobs: [] },
    ];
    expect(softLabel(content, only, 13)).toMatchObject({ ok: true, soft: 1 });
    const none = [
      { token: '{"faithful": ', logprob: -0.01 },
      { token: '7', logprob: -0.1, top_logprobs: [] },
      { token: '}', logprob: -0.01 },
    ];
    expect(softLabel('{"faithful": 7}', none, 13)).toMatchObject({ ok: false });
    expect(softLabel(content, [], 13)).toMatchObject({ ok: false });
    expect(softLabel(content, [{ token: '{"faith', logprob: 0 }], 13)).toMatchObject({ ok: false });
  });
});

describe('judge configuration', () => {
  const base = EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: 'http://127.0.0.1:8000/v1/',
    model: 'Qwen/Qwen3-8B',
  });

  it('has the paper defaults: Table 16 prompt, temperature 0, top_p 1, 8192 tokens, hard labels', () => {
    expect(base).toMatchObject({
      baseUrl: 'http://127.0.0.1:8000/v1',
      template: DEFAULT_TEMPLATE,
      temperature: 0,
      topP: 1,
      maxTokens: 8192,
      soft: false,
      apiKeyEnv: null,
      extra: {},
    });
    expect(DEFAULT_TEMPLATE).toContain('You are a strict faithfulness evaluator for text summarization.');
    expect(DEFAULT_TEMPLATE).toContain('{"faithful": 0 or 1}');
  });

  it('a version changes with every field that changes answers, and only with those', () => {
    const v = (patch: Record<string, unknown>) => versionText(EndpointConfigSchema.parse({ ...base, ...patch }));
    const same = [
      { concurrency: 64 },
      { timeoutS: 5 },
      { retries: 0 },
      { apiKeyEnv: 'OTHER_KEY' },
      { baseUrl: 'http://127.0.0.1:8000/v1///' },
    ];
    for (const patch of same) expect(v(patch), JSON.stringify(patch)).toBe(v({}));
    const different = [
      { model: 'Qwen/Qwen3-4B' },
      { template: `${DEFAULT_TEMPLATE}\n` },
      { temperature: 0.7 },
      { topP: 0.9 },
      { maxTokens: 16 },
      { soft: true },
      { extra: { chat_template_kwargs: { enable_thinking: false } } },
      { baseUrl: 'http://127.0.0.1:8001/v1' },
    ];
    const texts = different.map(v);
    for (const t of texts) expect(t).not.toBe(v({}));
    expect(new Set(texts).size).toBe(texts.length);
    // Key order inside extra does not matter.
    expect(v({ extra: { a: 1, b: { c: 2, d: 3 } } })).toBe(v({ extra: { b: { d: 3, c: 2 }, a: 1 } }));
    expect(canonicalJson({ b: [1, { y: 1, x: 2 }], a: null })).toBe('{"a":null,"b":[1,{"x":2,"y":1}]}');
  });

  it('validates: URL without credentials, both placeholders, no reserved extra fields, env var names', () => {
    const bad = [
      { baseUrl: 'ftp://x/v1' },
      { baseUrl: 'not a url' },
      { baseUrl: 'https://user:sk-secret@api.example.com/v1' },
      { template: 'Only {document}' },
      { extra: { temperature: 1 } },
      { extra: { messages: [] } },
      { apiKeyEnv: 'sk-1234' },
      { temperature: -1 },
      { concurrency: 0 },
      { unknownField: 1 },
    ];
    for (const patch of bad)
      expect(JudgeConfigSchema.safeParse({ ...base, ...patch }).success, JSON.stringify(patch)).toBe(false);
    expect(JudgeConfigSchema.safeParse({ kind: 'baseline' }).success).toBe(true);
  });

  it('fills the template in one pass and builds the exact body', () => {
    expect(renderTemplate('D={document} S={sentence}', 'has {sentence} inside', 'S1')).toBe(
      'D=has {sentence} inside S=S1',
    );
    const config = EndpointConfigSchema.parse({
      ...base,
      soft: true,
      extra: { chat_template_kwargs: { enable_thinking: false } },
    });
    const body = buildRequestBody(config, 'DOC', 'SENT');
    expect(body).toEqual({
      model: 'Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: renderTemplate(DEFAULT_TEMPLATE, 'DOC', 'SENT') }],
      temperature: 0,
      top_p: 1,
      max_tokens: 8192,
      logprobs: true,
      top_logprobs: 20,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(buildRequestBody(base, 'DOC', 'SENT')).not.toHaveProperty('logprobs');
  });
});

describe('redact', () => {
  it('removes the known key and anything shaped like a bearer token or an OpenAI key', () => {
    const key = 'my-very-secret-key-0042';
    expect(redact(`401: bad key ${key} (header Authorization: Bearer ${key})`, [key])).not.toContain(key);
    expect(redact('Incorrect API key provided: sk-proj-abcd****************wxyz.')).not.toMatch(/sk-proj/);
    expect(redact('{"api_key": "abc123def"}')).not.toContain('abc123def');
    expect(redact('Bearer abc.def-ghi')).toBe('Bearer [redacted]');
    expect(redact('connection failed (ECONNREFUSED)')).toBe('connection failed (ECONNREFUSED)');
  });
});
