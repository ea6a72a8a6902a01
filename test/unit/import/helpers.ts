/** Reading fixtures and the benchmark samples for the format parser tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { detectionHead } from '../../../shared/formats/head';
import {
  ImportValidationError,
  type FileHead,
  type ImportProblem,
  type SourceFile,
} from '../../../shared/formats/types';
import { BENCHMARKS } from '../../helpers/benchmarks';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The benchmark samples kept in the repository (test/fixtures/benchmarks/README.md). */
export const SAMPLE_DATA = BENCHMARKS;
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'formats');

/** The importer's folder filter. */
const IMPORTABLE = /\.(jsonl|json|csv|tsv|txt)$/i;

export function sample(...parts: string[]): string {
  return join(SAMPLE_DATA, ...parts);
}

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** Path shown in messages: relative to the samples or fixtures folder. */
function labelFor(path: string): string {
  const inSamples = relative(SAMPLE_DATA, path);
  return inSamples.startsWith('..') ? relative(FIXTURES, path) : inSamples;
}

/** A file as a parser receives it. */
export function source(path: string, label = labelFor(path)): SourceFile {
  return { path: label, text: readFileSync(path, 'utf8') };
}

export function text(path: string, body: string): SourceFile {
  return { path, text: body };
}

/** What detection sees of a file: the importer's head (shared/formats/head.ts). */
export function headOf(file: SourceFile): FileHead {
  return { path: file.path, head: detectionHead(file.text) };
}

/** Every importable file below a folder, with paths relative to it (as the importer lists them). */
export function folder(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (IMPORTABLE.test(name)) out.push({ path: relative(root, full), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return out;
}

/** Runs a parse that must fail and returns its problems. */
export function problemsOf(run: () => unknown): ImportProblem[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportValidationError);
    return (error as ImportValidationError).problems;
  }
  throw new Error('expected an ImportValidationError, but the parse succeeded');
}
