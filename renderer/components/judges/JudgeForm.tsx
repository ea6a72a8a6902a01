/**
 * Add or edit a judge: the fields of the contract's judge configuration, each checked as it is
 * typed, and beside them the exact request it would send. Enter saves, Esc cancels.
 *
 * The API key: on the desktop a password field whose value goes to the OS keychain through the
 * contract (never into the project); in the browser (`loupe serve`) the key can only come from an
 * environment variable of the server process, so the form asks for that variable's name.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { JudgeInfo } from '../../../shared/api';
import { errorMessage } from '../../api/errors';
import { addJudge, updateJudge } from '../../state/judges';
import { checkDraft, keyChange, type DraftField, type EndpointDraft, type JudgeDraft } from './draft';
import { RequestPreview } from './RequestPreview';

interface JudgeFormProps {
  mode: 'add' | 'edit';
  initial: JudgeDraft;
  /** The judge being edited (null when adding). */
  judge: JudgeInfo | null;
  /** The host keeps API keys in the OS keychain (app.info.keychain): the form offers a key field. */
  keychain: boolean;
  /** The paper's prompt (Table 16), from `judges.defaults`. */
  defaultTemplate: string;
  /** Names already in use (adding refuses them). */
  takenNames: readonly string[];
  onSaved: () => void;
  onCancel: () => void;
}

export function JudgeForm({
  mode,
  initial,
  judge,
  keychain,
  defaultTemplate,
  takenNames,
  onSaved,
  onCancel,
}: JudgeFormProps) {
  const [draft, setDraft] = useState<JudgeDraft>(initial);
  const [touched, setTouched] = useState<ReadonlySet<DraftField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();

  const check = useMemo(
    () => checkDraft(draft, { takenNames: mode === 'add' ? takenNames : [] }),
    [draft, mode, takenNames],
  );
  const errorOf = (field: DraftField): string | undefined =>
    submitted || touched.has(field) ? check.errors[field] : undefined;

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input:not([readonly]), textarea')?.focus();
  }, []);

  function update(field: DraftField, value: string | boolean) {
    setDraft((current) => ({ ...current, [field]: value }) as JudgeDraft);
    setTouched((current) => (current.has(field) ? current : new Set(current).add(field)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    setFormError(null);
    if (!check.ok || !check.config) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setSaving(true);
    try {
      const apiKey = keyChange(draft, keychain);
      if (mode === 'add') {
        await addJudge({ name: check.name, config: check.config, ...(typeof apiKey === 'string' ? { apiKey } : {}) });
      } else {
        await updateJudge({ name: check.name, config: check.config, ...(apiKey !== undefined ? { apiKey } : {}) });
      }
      onSaved();
    } catch (err) {
      setFormError(errorMessage(err));
      setSaving(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  }

  const field = (name: DraftField, label: ReactNode, control: (props: FieldProps) => ReactNode, hint?: ReactNode) => {
    const error = errorOf(name);
    const fieldId = `${id}-${name}`;
    const described =
      [error ? `${fieldId}-error` : null, hint ? `${fieldId}-hint` : null].filter(Boolean).join(' ') || undefined;
    return (
      <div className={`form-field field-${name}`}>
        <label htmlFor={fieldId}>{label}</label>
        {control({ id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
        {hint && (
          <span className="field-hint muted" id={`${fieldId}-hint`}>
            {hint}
          </span>
        )}
        {error && (
          <span className="field-error" id={`${fieldId}-error`} data-testid={`judge-${testIdOf(name)}-error`}>
            {error}
          </span>
        )}
      </div>
    );
  };

  const text =
    (name: DraftField, testId: string, extra: Record<string, unknown> = {}) =>
    (props: FieldProps) => (
      <input
        {...props}
        {...extra}
        type={(extra.type as string | undefined) ?? 'text'}
        value={String(draft[name as keyof JudgeDraft] ?? '')}
        onChange={(event) => update(name, event.target.value)}
        onBlur={() => setTouched((current) => (current.has(name) ? current : new Set(current).add(name)))}
        data-testid={testId}
      />
    );

  const title =
    draft.kind === 'baseline'
      ? `Edit the offline baseline “${judge?.name ?? draft.name}”`
      : mode === 'add'
        ? 'Add an endpoint judge'
        : `Edit “${judge?.name ?? draft.name}”`;

  return (
    <section className="panel judge-editor" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {title} {draft.kind === 'baseline' && <span className="tag tag-baseline">baseline</span>}
      </h2>
      <div className="judge-editor-body">
        <form
          ref={formRef}
          className="judge-form"
          onSubmit={(event) => void submit(event)}
          onKeyDown={onKeyDown}
          noValidate
          data-testid="judge-form"
          data-kind={draft.kind}
        >
          {field(
            'name',
            'Name',
            text('name', 'judge-name', { readOnly: mode === 'edit', maxLength: 200, autoComplete: 'off' }),
            mode === 'edit' ? 'The name identifies the judge; it cannot change.' : undefined,
          )}
          {draft.kind === 'endpoint' ? (
            <EndpointFields
              draft={draft}
              judge={judge}
              keychain={keychain}
              field={field}
              text={text}
              update={update}
              defaultTemplate={defaultTemplate}
            />
          ) : (
            <>
              <p className="muted judge-description">
                A simple deterministic rule with no model: a floor to beat, not a judge to trust. Changing a field makes
                a new version.
              </p>
              {field(
                'coverageThreshold',
                'Coverage threshold (0–1)',
                text('coverageThreshold', 'judge-coverage', { inputMode: 'decimal', className: 'narrow' }),
                'Below this share of its content words found in the best passage, a sentence is unfaithful.',
              )}
              {field(
                'passageSentences',
                'Passage length (sentences)',
                text('passageSentences', 'judge-passages', { inputMode: 'numeric', className: 'narrow' }),
              )}
            </>
          )}
          {formError && (
            <div className="error-banner" role="alert" data-testid="judge-form-error">
              <span className="error-text">{formError}</span>
            </div>
          )}
          {submitted && !check.ok && (
            <p className="field-error" role="alert" data-testid="judge-form-invalid">
              Fix the marked fields first.
            </p>
          )}
          <div className="row form-actions">
            <button type="submit" className="primary" disabled={saving} data-testid="judge-save">
              {saving ? 'Saving…' : mode === 'add' ? 'Add judge' : 'Save'}
            </button>
            <button type="button" onClick={onCancel} data-testid="judge-cancel">
              Cancel
            </button>
            <span className="muted key-hint">
              <kbd>Enter</kbd> saves · <kbd>Esc</kbd> cancels
            </span>
          </div>
        </form>
        <RequestPreview
          config={check.config}
          savedHash={mode === 'edit' ? (judge?.configHash ?? null) : null}
          keyNote={keyNote(draft, judge, keychain)}
        />
      </div>
    </section>
  );
}

interface FieldProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

type FieldFn = (
  name: DraftField,
  label: ReactNode,
  control: (props: FieldProps) => ReactNode,
  hint?: ReactNode,
) => ReactNode;
type TextFn = (name: DraftField, testId: string, extra?: Record<string, unknown>) => (props: FieldProps) => ReactNode;

interface EndpointFieldsProps {
  draft: EndpointDraft;
  judge: JudgeInfo | null;
  /** The host keeps API keys in the OS keychain (app.info.keychain): the form offers a key field. */
  keychain: boolean;
  field: FieldFn;
  text: TextFn;
  update: (field: DraftField, value: string | boolean) => void;
  defaultTemplate: string;
}

function EndpointFields({ draft, judge, keychain, field, text, update, defaultTemplate }: EndpointFieldsProps) {
  const keyStored = judge?.keySource === 'stored' || judge?.keySource === 'stored_other_origin';
  return (
    <>
      {field(
        'baseUrl',
        'Base URL',
        text('baseUrl', 'judge-base-url', {
          placeholder: 'http://127.0.0.1:8000/v1',
          autoComplete: 'off',
          spellCheck: false,
        }),
        'OpenAI-compatible: vLLM, Ollama (…:11434/v1), a hosted API.',
      )}
      {field(
        'replicas',
        'Replicas (optional)',
        (props) => (
          <textarea
            {...props}
            className="judge-replicas"
            rows={2}
            spellCheck={false}
            placeholder="http://127.0.0.1:8001/v1"
            value={draft.replicas}
            onChange={(event) => update('replicas', event.target.value)}
            data-testid="judge-replicas"
          />
        ),
        'More base URLs serving the same model, one per line: each request goes to the least-loaded healthy one. Not part of the judge version.',
      )}
      {field(
        'model',
        'Model',
        text('model', 'judge-model', { placeholder: 'Qwen/Qwen3-8B', autoComplete: 'off', spellCheck: false }),
      )}

      <fieldset className="judge-key">
        <legend>API key</legend>
        {keychain ? (
          <>
            {field(
              'apiKey',
              keyStored
                ? 'New API key (leave empty to keep the stored one)'
                : 'API key (optional: local servers need none)',
              text('apiKey', 'judge-api-key', {
                type: 'password',
                autoComplete: 'new-password',
                spellCheck: false,
                disabled: draft.forgetKey,
              }),
              'Stored in the OS keychain, never in the project file.',
            )}
            {keyStored && (
              <label className="check">
                <input
                  type="checkbox"
                  checked={draft.forgetKey}
                  onChange={(event) => update('forgetKey', event.target.checked)}
                  data-testid="judge-forget-key"
                />
                Forget the stored key
              </label>
            )}
            {/* Without a usable keychain (some Linux desktops) the key can only come from the environment. */}
            <details
              className="judge-key-env"
              open={judge?.apiKeyEnv ? true : undefined}
              data-testid="judge-key-env-details"
            >
              <summary>Or read the key from an environment variable</summary>
              {field(
                'apiKeyEnv',
                'Environment variable name',
                text('apiKeyEnv', 'judge-api-key-env', {
                  placeholder: 'OPENAI_API_KEY',
                  autoComplete: 'off',
                  spellCheck: false,
                }),
                'Used when no key is stored: the variable of the Loupe app process. Only the name is saved.',
              )}
            </details>
          </>
        ) : (
          field(
            'apiKeyEnv',
            'Environment variable with the key (optional)',
            text('apiKeyEnv', 'judge-api-key-env', {
              placeholder: 'OPENAI_API_KEY',
              autoComplete: 'off',
              spellCheck: false,
            }),
            'In the browser Loupe never receives a key: it is read from this variable of the `loupe serve` process. Only the name is stored.',
          )
        )}
      </fieldset>

      {field(
        'template',
        <>
          Prompt template{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => update('template', defaultTemplate)}
            data-testid="judge-template-reset"
          >
            reset to the paper's prompt (Table 16)
          </button>
        </>,
        (props) => (
          <textarea
            {...props}
            className="judge-template"
            rows={10}
            spellCheck={false}
            value={draft.template}
            onChange={(event) => update('template', event.target.value)}
            data-testid="judge-template"
          />
        ),
        <>
          <code>{'{document}'}</code> and <code>{'{sentence}'}</code> are replaced by the document and the summary
          sentence; every other brace is literal text.
        </>,
      )}

      <fieldset className="judge-grid">
        <legend>Decoding (part of the judge version)</legend>
        {field(
          'temperature',
          'Temperature',
          text('temperature', 'judge-temperature', { inputMode: 'decimal', className: 'narrow' }),
        )}
        {field('topP', 'top_p', text('topP', 'judge-top-p', { inputMode: 'decimal', className: 'narrow' }))}
        {field(
          'maxTokens',
          'Max tokens',
          text('maxTokens', 'judge-max-tokens', { inputMode: 'numeric', className: 'narrow' }),
        )}
        <label className="check judge-soft">
          <input
            type="checkbox"
            checked={draft.soft}
            onChange={(event) => update('soft', event.target.checked)}
            data-testid="judge-soft"
          />
          Soft labels: request log-probabilities (top 20) and read P(“1”)
        </label>
      </fieldset>

      <fieldset className="judge-grid">
        <legend>Running (does not change answers)</legend>
        {field(
          'concurrency',
          'Concurrency',
          text('concurrency', 'judge-concurrency', { inputMode: 'numeric', className: 'narrow' }),
          'at most, per replica: lowered on 429s',
        )}
        {field(
          'timeoutS',
          'Timeout (s)',
          text('timeoutS', 'judge-timeout', { inputMode: 'decimal', className: 'narrow' }),
          'per request',
        )}
        {field(
          'retries',
          'Retries',
          text('retries', 'judge-retries', { inputMode: 'numeric', className: 'narrow' }),
          'on 429, 5xx, timeouts',
        )}
      </fieldset>

      {field(
        'extra',
        'Extra request fields (JSON object)',
        (props) => (
          <textarea
            {...props}
            className="judge-extra"
            rows={3}
            spellCheck={false}
            value={draft.extra}
            onChange={(event) => update('extra', event.target.value)}
            data-testid="judge-extra"
          />
        ),
        <>
          Merged into the request body, e.g. <code>{'{"chat_template_kwargs": {"enable_thinking": false}}'}</code> for
          Qwen3. Part of the judge version.
        </>,
      )}
    </>
  );
}

function testIdOf(field: DraftField): string {
  const ids: Partial<Record<DraftField, string>> = {
    baseUrl: 'base-url',
    apiKey: 'api-key',
    apiKeyEnv: 'api-key-env',
    topP: 'top-p',
    maxTokens: 'max-tokens',
    timeoutS: 'timeout',
    coverageThreshold: 'coverage',
    passageSentences: 'passages',
  };
  return ids[field] ?? field;
}

/** The preview shows "Bearer <…>" for a config; say where the desktop's key will come from. */
function keyNote(draft: JudgeDraft, judge: JudgeInfo | null, keychain: boolean): string | null {
  if (!keychain || draft.kind !== 'endpoint') return null;
  if (draft.apiKey.trim())
    return 'On save the typed key goes to the OS keychain; requests then carry it as "Authorization: Bearer …" (never shown here).';
  // A stored key goes only to the endpoint origins it was typed for (the core checks; this says so).
  if (judge?.keySource === 'stored_other_origin' && !draft.forgetKey)
    return 'The stored key was typed for another address and is not sent to this base URL: type it again to send it here.';
  if (judge?.keySource === 'stored' && !draft.forgetKey) {
    if (judge.config?.kind === 'endpoint' && originOf(draft.baseUrl) !== originOf(judge.config.baseUrl))
      return 'The stored key was typed for another address: after saving it is not sent to this base URL until you type it again.';
    return 'Requests carry the key stored in the OS keychain (never shown here).';
  }
  return null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}
