/**
 * Which disk paths the renderer may hand to the core. The page is not trusted with the file
 * system: a contract call that opens, creates, merges or imports a path is answered only if the
 * user chose that path through the main process in this session (a native dialog, a file dropped
 * on the window, the command line, a file the OS opened with Loupe) or it is on the
 * recent-projects list. A compromised page therefore cannot read or overwrite arbitrary files by
 * sending a path of its own.
 *
 * A grant is for one purpose: a file picked for import cannot be opened as a project (opening
 * migrates and writes it), and a dropped file can only be imported.
 */
import path from 'node:path';
import { parseApiInput, type ApiErrorBody, type ApiMethod } from '../../shared/api';

/** 'save': a file a call writes (export.write, judges.batchExport / accuracy.batchExport with a path), granted by dialog.chooseSavePath. */
export type GrantPurpose = 'open' | 'create' | 'merge' | 'import' | 'save';

export interface PathGrants {
  grant(purpose: GrantPurpose, filePath: string): void;
  isGranted(purpose: GrantPurpose, filePath: string): boolean;
}

/** The key a path is compared by: absolute and normalised (Windows paths ignore case). */
export function pathKey(filePath: string, platform: NodeJS.Platform = process.platform): string {
  const resolved = platform === 'win32' ? path.win32.resolve(filePath) : path.resolve(filePath);
  return platform === 'win32' ? resolved.toLowerCase() : resolved;
}

export function createPathGrants(platform: NodeJS.Platform = process.platform): PathGrants {
  const granted = new Map<GrantPurpose, Set<string>>();
  return {
    grant(purpose, filePath) {
      if (!filePath) return;
      let set = granted.get(purpose);
      if (!set) granted.set(purpose, (set = new Set()));
      set.add(pathKey(filePath, platform));
    },
    isGranted(purpose, filePath) {
      return granted.get(purpose)?.has(pathKey(filePath, platform)) ?? false;
    },
  };
}

export interface RequestedPath {
  purpose: GrantPurpose;
  path: string;
}

/**
 * The disk paths a call would touch, read from its *validated* input (the same value the handler
 * receives); empty for every method that takes no path, and for input that fails validation
 * (dispatch refuses it anyway).
 */
export function requestedPaths(method: ApiMethod, rawInput: unknown): RequestedPath[] {
  switch (method) {
    case 'projects.open':
    case 'projects.create': {
      const parsed = parseApiInput(method, rawInput);
      if (!parsed.ok) return [];
      return [{ purpose: method === 'projects.open' ? 'open' : 'create', path: parsed.value.path }];
    }
    case 'merge.projects': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok ? parsed.value.paths.map((p) => ({ purpose: 'merge' as const, path: p })) : [];
    }
    case 'imports.start': {
      const parsed = parseApiInput(method, rawInput);
      if (!parsed.ok || parsed.value.source.type !== 'path') return [];
      return [{ purpose: 'import', path: parsed.value.source.path }];
    }
    case 'judges.batchImport': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok && parsed.value.source.type === 'path'
        ? [{ purpose: 'import', path: parsed.value.source.path }]
        : [];
    }
    case 'judges.batchExport': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok && parsed.value.path !== undefined ? [{ purpose: 'save', path: parsed.value.path }] : [];
    }
    case 'accuracy.batchImport': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok && parsed.value.source.type === 'path'
        ? [{ purpose: 'import', path: parsed.value.source.path }]
        : [];
    }
    case 'accuracy.batchExport': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok && parsed.value.path !== undefined ? [{ purpose: 'save', path: parsed.value.path }] : [];
    }
    case 'export.write': {
      const parsed = parseApiInput(method, rawInput);
      return parsed.ok ? [{ purpose: 'save', path: parsed.value.path }] : [];
    }
    default:
      return [];
  }
}

export interface PathGuardDeps {
  grants: PathGrants;
  /** The recent-projects list (paths the user opened before); these may be opened again. */
  recentPaths(): Promise<readonly string[]>;
  platform?: NodeJS.Platform;
}

/** Null when every path of the call is allowed; else the `forbidden` error to answer. */
export type PathGuard = (method: ApiMethod, rawInput: unknown) => Promise<ApiErrorBody | null>;

export function createPathGuard(deps: PathGuardDeps): PathGuard {
  const platform = deps.platform ?? process.platform;
  return async (method, rawInput) => {
    const requested = requestedPaths(method, rawInput);
    if (requested.length === 0) return null;
    let recent: Set<string> | null = null;
    for (const { purpose, path: filePath } of requested) {
      if (deps.grants.isGranted(purpose, filePath)) continue;
      if (purpose === 'open') {
        recent ??= new Set((await deps.recentPaths().catch(() => [])).map((p) => pathKey(p, platform)));
        if (recent.has(pathKey(filePath, platform))) continue;
      }
      return {
        code: 'forbidden',
        message:
          `Refused ${method}: ${JSON.stringify(filePath)} was not chosen in a Loupe dialog, dropped on the window or opened ` +
          `from the command line${purpose === 'open' ? ' or the recent projects' : ''}. Choose it with the ${dialogFor(purpose)} dialog.`,
      };
    }
    return null;
  };
}

function dialogFor(purpose: GrantPurpose): string {
  return { open: 'Open project', create: 'New project', merge: 'Merge', import: 'Import', save: 'Save' }[purpose];
}
