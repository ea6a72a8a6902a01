/**
 * Loupe's layer rules and its no-cycle rule (docs/architecture.md, "Layers"), checked on import
 * specifiers parsed with the TypeScript compiler: static imports and re-exports, `import type`,
 * `typeof import('…')`, dynamic `import()`, `require()` / `require.resolve()` /
 * `createRequire(…)(…)`, and `vi.mock` and its relatives. Pure functions of (file path, source
 * text) so the tests can feed them synthetic sources and prove each rule catches what it forbids.
 */
import { builtinModules } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';

export interface ImportSite {
  specifier: string;
  line: number;
}

const VI_MODULE_CALLS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);

function literalText(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return null;
}

/** True for `require`, `require.resolve`, `createRequire(…)`, `vi.mock` and its relatives. */
function isModuleCall(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (ts.isPropertyAccessExpression(callee)) {
    const owner = callee.expression;
    if (ts.isIdentifier(owner) && owner.text === 'require' && callee.name.text === 'resolve') return true;
    if (ts.isIdentifier(owner) && owner.text === 'vi' && VI_MODULE_CALLS.has(callee.name.text)) return true;
  }
  // createRequire(import.meta.url)('x')
  return (
    ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire'
  );
}

/** Every module specifier written as a literal in `source`, with its line (1-based). */
export function importSites(fileName: string, source: string): ImportSite[] {
  const kind = /\.tsx$/.test(fileName)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const sites: ImportSite[] = [];
  const add = (node: ts.Node, specifier: string | null) => {
    if (specifier === null) return;
    sites.push({ specifier, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, literalText(node.moduleSpecifier));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, literalText(node.moduleReference.expression));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node, literalText(node.argument.literal));
    else if (ts.isCallExpression(node) && isModuleCall(node.expression)) add(node, literalText(node.arguments[0]));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}

/** What a specifier points at, from a file at repository-relative `fileName`. */
export type Target =
  { kind: 'builtin'; name: string } | { kind: 'package'; name: string } | { kind: 'path'; path: string };

const BUILTINS = new Set(builtinModules);

export function classify(fileName: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    return { kind: 'path', path: posix.normalize(posix.join(posix.dirname(fileName), specifier)) };
  }
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]!))
    return { kind: 'builtin', name: specifier };
  const parts = specifier.split('/');
  return { kind: 'package', name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]! };
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

export const HOST_FOLDERS = [
  'electron/main',
  'electron/preload',
  'electron/serve',
  'electron/cli',
  'electron/worker',
] as const;
const CORE = 'electron/core';
const CORE_INDEX = new Set([
  'electron/core',
  'electron/core/index',
  'electron/core/index.ts',
  'electron/core/index.js',
]);
const UI_PACKAGES = /^(react|react-dom|@testing-library\/.*|@tanstack\/react-.*|zustand)$/;
const SQLITE_PACKAGES = /^better-sqlite3(-napi)?$/;

/**
 * A host importing another host, allowed where it is the point of the file: `loupe serve` is a
 * subcommand of the CLI, so the CLI starts the HTTP server. Nothing else crosses hosts.
 */
export const HOST_TO_HOST_ALLOWED: ReadonlyArray<{ from: string; to: string; why: string }> = [
  { from: 'electron/cli', to: 'electron/serve', why: '`loupe serve` is a CLI subcommand: the CLI starts the server' },
];

/**
 * A host reaching past the core's index, allowed where the index would cost more than it guards:
 * the analysis worker thread runs exactly one core module (the job), and importing the index
 * would bundle the whole core into it (measured: 1.42 MB / 385 inputs instead of 0.88 MB / 136).
 */
export const CORE_DEEP_IMPORTS_ALLOWED: ReadonlyArray<{ from: string; to: string; why: string }> = [
  {
    from: 'electron/worker',
    to: 'electron/core/analysis/job',
    why: 'the worker thread runs only the analysis job; the index would bundle the whole core into it',
  },
  {
    from: 'electron/worker',
    to: 'electron/core/planning/job',
    why: 'the same worker thread runs a plan of the annotation (the same figures); the same reason',
  },
];

export type Layer = 'shared' | 'db' | 'core' | 'host' | 'renderer';

export function layerOf(fileName: string): Layer | null {
  if (under(fileName, 'shared')) return 'shared';
  if (under(fileName, 'db')) return 'db';
  if (under(fileName, CORE)) return 'core';
  if (HOST_FOLDERS.some((host) => under(fileName, host))) return 'host';
  if (under(fileName, 'renderer')) return 'renderer';
  return null;
}

/** Why this import breaks the layer of `fileName`, or null when it is allowed. */
export function ruleBroken(fileName: string, target: Target): string | null {
  const layer = layerOf(fileName);
  switch (layer) {
    case 'shared':
      if (target.kind === 'builtin') return 'shared/ is pure: no Node builtins';
      if (target.kind === 'path' && !under(target.path, 'shared')) return 'shared/ imports only shared/';
      if (
        target.kind === 'package' &&
        (target.name === 'electron' ||
          target.name === 'openai' ||
          SQLITE_PACKAGES.test(target.name) ||
          UI_PACKAGES.test(target.name))
      ) {
        return `shared/ never imports ${target.name}`;
      }
      return null;
    case 'db':
      if (target.kind === 'path' && !under(target.path, 'db') && !under(target.path, 'shared'))
        return 'db/ imports only db/ and shared/';
      if (
        target.kind === 'package' &&
        (target.name === 'electron' || target.name === 'openai' || UI_PACKAGES.test(target.name))
      ) {
        return `db/ never imports ${target.name}`;
      }
      return null;
    case 'core':
      if (target.kind === 'package' && (target.name === 'electron' || UI_PACKAGES.test(target.name)))
        return `the core never imports ${target.name}`;
      if (target.kind === 'path' && HOST_FOLDERS.some((host) => under(target.path, host)))
        return 'the core never imports a host';
      if (target.kind === 'path' && under(target.path, 'renderer')) return 'the core never imports the renderer';
      return null;
    case 'host': {
      if (target.kind !== 'path') return null;
      const from = HOST_FOLDERS.find((host) => under(fileName, host))!;
      const deepAllowed = CORE_DEEP_IMPORTS_ALLOWED.some(
        (a) => a.from === from && target.path.replace(/\.(ts|js)$/, '') === a.to,
      );
      if (under(target.path, CORE) && !CORE_INDEX.has(target.path) && !deepAllowed)
        return 'hosts use the core through electron/core/index.ts only';
      if (under(target.path, 'renderer')) return 'hosts never import the renderer';
      const to = HOST_FOLDERS.find((host) => under(target.path, host));
      if (to && to !== from && !HOST_TO_HOST_ALLOWED.some((a) => a.from === from && a.to === to))
        return `${from} never imports ${to}`;
      return null;
    }
    case 'renderer':
      if (target.kind === 'builtin') return 'the renderer never imports Node';
      if (
        target.kind === 'package' &&
        (target.name === 'electron' || target.name === 'openai' || SQLITE_PACKAGES.test(target.name))
      ) {
        return `the renderer never imports ${target.name}`;
      }
      if (target.kind === 'path' && (under(target.path, 'db') || under(target.path, 'electron')))
        return 'the renderer talks to the typed api only (no db/, no electron/)';
      return null;
    default:
      return null;
  }
}

export interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

/** Every broken rule in one source file (repository-relative, forward slashes). */
export function violations(fileName: string, source: string): Violation[] {
  return importSites(fileName, source).flatMap(({ specifier, line }) => {
    const rule = ruleBroken(fileName, classify(fileName, specifier));
    return rule ? [{ file: fileName, line, specifier, rule }] : [];
  });
}

// --- import cycles -------------------------------------------------------------------------------

const RESOLVED_EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '/index.ts', '/index.tsx'];

/**
 * The repository file a relative specifier of `fileName` loads (`.js` written for a `.ts` file
 * included), or null for packages, builtins and paths that are not source files of the tree.
 */
export function resolveImport(fileName: string, specifier: string, isFile: (path: string) => boolean): string | null {
  const target = classify(fileName, specifier);
  if (target.kind !== 'path') return null;
  const bare = target.path.replace(/\.(js|mjs|cjs)$/, '');
  for (const candidate of [target.path, ...RESOLVED_EXTENSIONS.map((ext) => bare + ext)])
    if (isFile(candidate)) return candidate;
  return null;
}

/** Who imports whom: every literal specifier of every file (type-only imports too) that resolves to a file of `sources`. */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const isFile = (path: string) => sources.has(path);
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = importSites(file, text).map((s) => resolveImport(file, s.specifier, isFile));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== null))]);
  }
  return graph;
}

/**
 * Every import cycle of the graph, one per strongly connected component of two or more files (or
 * a file importing itself), each told as a path that closes on its first file: `a → b → a`.
 * Type-only imports count: a type cycle still means neither module can be read, moved or tested
 * without the other.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative so a deep tree cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) components.push(component);
    }
  }
  return components.map((component) => cyclePath(graph, new Set(component)));
}

/** One cycle through a strongly connected component, from its first file (in sort order) back to it. */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0]!;
  // Breadth-first from start inside the component, then back along the parents of whoever imports start.
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        return [...path, start];
      }
      if (!parent.has(to)) {
        parent.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}
