/**
 * Lone UTF-16 surrogates in any string of an API call are refused by the contract (SQLite would
 * store U+FFFD, i.e. other text than was sent), and a judge or system whose name cannot be read
 * back after its insert is rolled back instead of staying in the project.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/dispatch';
import { API } from '../../../shared/api';
import { useEmptyProject } from '../../helpers/empty-project';

const LONE = 'Ali\uD800ce';
const project = useEmptyProject();
const { rows } = project;
const system = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' };

describe('the contract refuses lone surrogates in every string', () => {
  const calls: Array<{ method: string; input: unknown; field: string }> = [
    { method: 'annotators.ensure', input: { name: LONE }, field: 'name' },
    { method: 'judges.add', input: { name: LONE, config: { kind: 'baseline' } }, field: 'name' },
    {
      method: 'judges.add',
      input: {
        name: 'j',
        config: { kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', extra: { tags: ['ok', LONE] } },
      },
      field: 'config.extra.tags[1]',
    },
    {
      method: 'judges.add',
      input: {
        name: 'j',
        config: { kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', extra: { [LONE]: 1 } },
      },
      field: 'config.extra',
    },
    { method: 'systems.add', input: { name: LONE, config: system }, field: 'name' },
    {
      method: 'annotation.record',
      input: {
        unitId: 1,
        annotator: 'alice',
        state: { label: 'faithful', errorType: null, note: `line one\nline \uDC00two` },
        timeSpentMs: null,
        cause: 'note',
      },
      field: 'state.note (line 2)',
    },
    {
      method: 'keyfacts.edit',
      input: {
        documentKey: 1,
        annotator: 'alice',
        basedOnVersion: null,
        facts: [{ text: 'fine' }, { text: `x\uD83D` }],
      },
      field: 'facts[1].text',
    },
    {
      method: 'scaffold.edit',
      input: {
        documentKey: 1,
        annotator: 'alice',
        basedOnVersion: null,
        facts: [{ id: 'f1', text: LONE, tier: 'main' }],
      },
      field: 'facts[0].text',
    },
    {
      method: 'claims.edit',
      input: { key: 1, annotator: 'alice', basedOnVersion: null, claims: [{ sentenceUnitId: 1, text: LONE }] },
      field: 'claims[0].text',
    },
  ];

  it.each(calls)(
    '$method refuses one at $field, naming the field, and stores nothing',
    async ({ method, input, field }) => {
      const before = { annotators: rows('annotators'), judges: rows('judges'), systems: rows('systems') };
      const answer = await dispatch(project.core.handlers, method, input);
      expect(answer.ok).toBe(false);
      if (answer.ok) return;
      expect(answer.error.code).toBe('invalid_input');
      expect(answer.error.message).toContain(`${field}: expected text without lone UTF-16 surrogates`);
      expect(answer.error.message).toMatch(/found (a key with )?"\\uD[89ABC][0-9A-F]{2}" on its own/);
      expect({ annotators: rows('annotators'), judges: rows('judges'), systems: rows('systems') }).toEqual(before);
    },
  );

  it('a surrogate pair (an emoji) is text and is accepted', async () => {
    const answer = await dispatch(project.core.handlers, 'annotators.ensure', { name: 'Ana 😀' });
    expect(answer).toMatchObject({ ok: true, value: { name: 'Ana 😀' } });
  });
});

describe('a name that cannot be read back leaves nothing stored', () => {
  it('judges.add called past the contract: refused and rolled back', async () => {
    const input = API['judges.add'].input.parse({ name: LONE, config: { kind: 'baseline' } });
    await expect(project.core.handlers['judges.add'](input)).rejects.toThrow(/No judge/);
    expect(rows('judges')).toBe(0);
    expect(rows('judge_versions')).toBe(0);
  });

  it('systems.add called past the contract: refused (not a TypeError) and rolled back', async () => {
    const input = API['systems.add'].input.parse({ name: LONE, config: system });
    await expect(project.core.handlers['systems.add'](input)).rejects.toThrow(/No system/);
    expect(rows('systems')).toBe(0);
  });
});
