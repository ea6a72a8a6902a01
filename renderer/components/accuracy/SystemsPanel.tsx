/**
 * Systems under test: OpenAI-compatible models that write the summaries, each
 * document as one user message, no system message. The key: on the desktop (app.info.keychain) a
 * password field whose value goes to the OS keychain, bound to the base URL's origin; elsewhere
 * only the name of the environment variable that holds it. A key is never shown back.
 */
import { useState } from 'react';
import { DEFAULT_SUMMARY_PROMPT, SystemConfigSchema, type SystemInfo } from '../../../shared/contract/systems';
import { addSystem, removeSystem } from '../../state/accuracyTasks';
import { useSession } from '../../state/session';
import { formatCount } from '../../format';

export function SystemsPanel({ systems }: { systems: readonly SystemInfo[] }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('http://127.0.0.1:8000/v1');
  const [model, setModel] = useState('');
  const [apiKeyEnv, setApiKeyEnv] = useState('');
  const [apiKey, setApiKey] = useState('');
  const keychain = useSession((state) => state.info?.keychain ?? false);
  const [prompt, setPrompt] = useState(DEFAULT_SUMMARY_PROMPT);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit() {
    const parsed = SystemConfigSchema.safeParse({
      baseUrl,
      model,
      apiKeyEnv: apiKeyEnv.trim() === '' ? null : apiKeyEnv.trim(),
      prompt,
    });
    if (!parsed.success || name.trim() === '') {
      setProblem(
        name.trim() === ''
          ? 'A name is needed.'
          : parsed.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
      return;
    }
    setProblem(null);
    if (await addSystem({ name: name.trim(), config: parsed.data, ...(keychain && apiKey !== '' ? { apiKey } : {}) })) {
      setName('');
      setModel('');
      setApiKey('');
    }
  }

  return (
    <div className="accuracy-systems" data-testid="accuracy-systems">
      <h3>Systems under test</h3>
      {systems.length === 0 ? (
        <p className="muted" data-testid="systems-empty">
          No system yet. Imported summaries keep their system field; add an endpoint to have Loupe ask a model for
          summaries.
        </p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Model</th>
              <th className="num">Documents</th>
              <th className="num">Summaries</th>
              <th className="num">Failed (0.0 on all three)</th>
              <th>API key</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {systems.map((system) => (
              <tr key={system.name} data-testid="system-row" data-system={system.name}>
                <td>
                  {system.name} {system.kind === 'imported' && <span className="tag">imported</span>}
                </td>
                <td>
                  {system.config
                    ? `${system.config.model} at ${system.config.baseUrl ?? system.config.baseUrls?.[0] ?? ''}`
                    : '—'}
                </td>
                <td className="num">{formatCount(system.documents)}</td>
                <td className="num">{formatCount(system.ok)}</td>
                <td className="num" title={system.failures.map((f) => `${f.kind}: ${f.count}`).join(', ')}>
                  {formatCount(system.failed)}
                </td>
                <td data-testid="system-key-source" data-key-source={system.keySource}>
                  {system.kind === 'endpoint' ? keySourceText(system) : '—'}
                </td>
                <td>
                  {system.kind === 'endpoint' && (
                    <button
                      type="button"
                      className="link-button"
                      data-testid="system-remove"
                      onClick={() => void removeSystem(system.name)}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="form-grid"
        data-testid="system-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label>
          Name <input type="text" value={name} onChange={(e) => setName(e.target.value)} data-testid="system-name" />
        </label>
        <label>
          Base URL{' '}
          <input
            type="text"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            data-testid="system-base-url"
          />
        </label>
        <label>
          Model{' '}
          <input type="text" value={model} onChange={(e) => setModel(e.target.value)} data-testid="system-model" />
        </label>
        <label>
          API key environment variable{' '}
          <input
            type="text"
            value={apiKeyEnv}
            placeholder="OPENAI_API_KEY"
            onChange={(e) => setApiKeyEnv(e.target.value)}
            data-testid="system-key-env"
          />
        </label>
        {keychain && (
          <label>
            API key (kept in the OS keychain for this base URL)
            <input
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              data-testid="system-api-key"
            />
          </label>
        )}
        <label className="wide">
          User message (<code>{'{document}'}</code> is the document; no system message is sent)
          <textarea rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} data-testid="system-prompt" />
        </label>
        {problem && <p className="notice">{problem}</p>}
        <button type="submit" data-testid="system-add">
          Add the system
        </button>
      </form>
    </div>
  );
}

/** Where a run takes the system's key from, as the judges table says it. */
function keySourceText(system: SystemInfo): string {
  if (system.keySource === 'stored') return 'stored in the OS keychain';
  if (system.keySource === 'stored_other_origin') return 'stored for another address: type it again';
  if (system.keySource === 'env' && system.config?.apiKeyEnv) return `from $${system.config.apiKeyEnv}`;
  return 'none';
}
