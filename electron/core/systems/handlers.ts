/**
 * systems.*: the systems under test. An endpoint system is an OpenAI-compatible
 * model Loupe asks for summaries (accuracy.start, task summary_generation); an imported one is a
 * file's model field. Configurations never hold a key (only the NAME of an environment variable);
 * a key typed in the desktop app goes to the OS keychain, bound to the endpoint origins (keys.ts).
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import { SystemConfigSchema, type SystemInfo } from '../../../shared/contract/systems';
import type { SystemRepository } from '../../../db/systemRepository';
import type { CoreContext } from '../context';
import { systemKeys, type SystemKeys } from './keys';
import { systemConfigHash } from './summary-task';

export type SystemsHandlers = Pick<ApiHandlers, 'systems.list' | 'systems.add' | 'systems.remove'>;

function infoOf(row: ReturnType<SystemRepository['listSystems']>[number], keys: SystemKeys): SystemInfo {
  const config = row.config === null ? null : SystemConfigSchema.parse(JSON.parse(row.config));
  return {
    name: row.name,
    kind: row.kind,
    config,
    configHash: row.configHash,
    documents: row.ok + row.failed,
    ok: row.ok,
    failed: row.failed,
    failures: row.failures,
    updatedAt: row.updatedAt,
    keySource: row.kind === 'endpoint' ? keys.source(row.name, config) : 'none',
  };
}

export function createSystemsHandlers(ctx: CoreContext): SystemsHandlers {
  const systems = () => ctx.project().repo.systems;
  const keys = systemKeys(ctx);
  const storedSystem = (name: string) => {
    const row = systems()
      .listSystems()
      .find((s) => s.name === name);
    if (!row) throw new ApiError({ code: 'not_found', message: `No system "${name}" in this project.` });
    return row;
  };
  return {
    'systems.list': async () =>
      systems()
        .listSystems()
        .map((row) => infoOf(row, keys)),
    'systems.add': async ({ name, config, apiKey }) => {
      const existing = systems().systemByName(name);
      if (existing && existing.kind === 'imported')
        throw new ApiError({
          code: 'conflict',
          message: `"${name}" is an imported system (its summaries came with a file); choose another name.`,
        });
      // Refused before anything is stored: a key this host cannot keep, a variable it may not read.
      if (typeof apiKey === 'string') keys.requireStorable();
      if (config.apiKeyEnv) ctx.keys.requireEnvAllowed(config.apiKeyEnv, `The system "${name}"`);
      // Read back inside the transaction: a name stored differently from how it was given (not
      // found under it) rolls the write back instead of leaving a system nobody can name.
      ctx.project().repo.transaction(() => {
        systems().ensureSystem(name, 'endpoint', JSON.stringify(config), systemConfigHash(config));
        storedSystem(name);
      });
      if (typeof apiKey === 'string') keys.store(name, config, apiKey);
      else if (apiKey === null) keys.remove(name);
      return infoOf(storedSystem(name), keys);
    },
    'systems.remove': async ({ name }) => {
      const removed = systems().removeSystem(name);
      if (removed) keys.remove(name);
      return { removed };
    },
  };
}
