#!/usr/bin/env node
/**
 * Security lint of the desktop host: runs electronegativity over electron/ and fails on any
 * finding that build/electronegativity-allowlist.json does not list (check id + file, with a
 * reason), and on any file electronegativity could not parse (an unscanned file is a blind spot).
 *
 * electronegativity always exits 0, and its CLI breaks on the commander 14 hoisted in this repo,
 * so it is run through its programmatic entry, which returns the issues. (Its SARIF/CSV output is
 * written with an unawaited fs.writeFile, so reading that file right after the run races.)
 *
 * Usage: node scripts/check-electronegativity.mjs [--verbose]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCAN_DIR = 'electron';
const ALLOWLIST = 'build/electronegativity-allowlist.json';
const require = createRequire(import.meta.url);

/**
 * @typedef {{ check: string, file: string, reason: string }} AllowEntry
 * @typedef {{ check: string, file: string, line: number, level: string, message: string }} Finding
 */

export function loadAllowlist(file = path.join(ROOT, ALLOWLIST)) {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const problems = [];
  const allowed = Array.isArray(data.allowed) ? data.allowed : [];
  const excluded = Array.isArray(data.excludedChecks) ? data.excludedChecks : [];
  allowed.forEach((entry, i) => {
    for (const key of ['check', 'file', 'reason']) {
      if (typeof entry?.[key] !== 'string' || entry[key].trim() === '')
        problems.push(`allowed[${i}].${key} is missing`);
    }
  });
  excluded.forEach((entry, i) => {
    for (const key of ['check', 'reason']) {
      if (typeof entry?.[key] !== 'string' || entry[key].trim() === '')
        problems.push(`excludedChecks[${i}].${key} is missing`);
    }
  });
  if (problems.length) throw new Error(`${ALLOWLIST}: ${problems.join('; ')}`);
  return { allowed, excluded };
}

/** electronegativity's issues → findings with repo-relative paths. */
export function toFindings(issues, scanDir = SCAN_DIR) {
  return issues.map((issue) => ({
    check: issue.id,
    file:
      !issue.file || issue.file === 'N/A'
        ? 'N/A'
        : path.posix.join(scanDir, String(issue.file).split(path.sep).join('/')),
    line: issue.location?.line ?? 0,
    level: `${issue.severity?.name ?? '?'}/${issue.confidence?.name ?? '?'}${issue.manualReview ? ', review' : ''}`,
    message: issue.description ?? '',
  }));
}

export function partition(findings, allowed) {
  const isAllowed = (f) => allowed.some((a) => a.check === f.check && a.file === f.file);
  const unused = allowed.filter((a) => !findings.some((f) => a.check === f.check && a.file === f.file));
  return { blocking: findings.filter((f) => !isAllowed(f)), accepted: findings.filter(isAllowed), unused };
}

async function runElectronegativity(excludedChecks) {
  const run = require('@doyensec/electronegativity');
  const electronVersion = require('electron/package.json').version;
  // It prints banners and network notices (translations) on console.log: kept for --verbose only.
  const noise = [];
  const { log } = console;
  console.log = (...args) => noise.push(args.join(' '));
  try {
    const result = await run(
      {
        input: path.join(ROOT, SCAN_DIR),
        customScan: [],
        excludeFromScan: excludedChecks.map((c) => c.toLowerCase()),
        isRelative: true,
        isVerbose: false,
        electronVersionOverride: electronVersion,
        parserPlugins: [],
      },
      false,
    );
    if (!result || !Array.isArray(result.issues)) throw new Error('electronegativity returned no result');
    return {
      issues: result.issues,
      errors: result.errors ?? [],
      noise,
      checks: (result.globalChecks ?? 0) + (result.atomicChecks ?? 0),
      electronVersion,
    };
  } finally {
    console.log = log;
  }
}

async function main() {
  const verbose = process.argv.includes('--verbose');
  const started = Date.now();
  const { allowed, excluded } = loadAllowlist();
  const { issues, errors, noise, checks, electronVersion } = await runElectronegativity(excluded.map((e) => e.check));
  if (verbose) for (const line of noise) console.log(`  (electronegativity) ${line}`);

  const findings = toFindings(issues);
  const { blocking, accepted, unused } = partition(findings, allowed);
  const parseErrors = errors.filter((e) => !e.tolerable);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  console.log(
    `electronegativity: ${SCAN_DIR}/ with ${checks} checks (Electron ${electronVersion}; excluded: ${
      excluded.map((e) => e.check).join(', ') || 'none'
    }) in ${seconds} s`,
  );
  for (const f of accepted) {
    const why = allowed.find((a) => a.check === f.check && a.file === f.file)?.reason;
    console.log(`  allowed  ${f.check}  ${f.file}:${f.line}  (${why})`);
  }
  for (const a of unused) console.log(`  note     allowlist entry no longer matches anything: ${a.check} ${a.file}`);
  for (const e of parseErrors) console.log(`  FAIL     could not parse ${path.relative(ROOT, e.file)}: ${e.message}`);
  for (const f of blocking) console.log(`  FAIL     ${f.check}  ${f.file}:${f.line}  [${f.level}] ${f.message}`);

  const failed = blocking.length + parseErrors.length;
  console.log(
    `electronegativity: ${findings.length} finding(s), ${accepted.length} allowlisted, ${blocking.length} not allowlisted` +
      (parseErrors.length ? `, ${parseErrors.length} file(s) not parsed` : '') +
      (failed ? ` — FAILED (fix them, or add {check, file, reason} to ${ALLOWLIST})` : ' — OK'),
  );
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`electronegativity: could not run: ${err instanceof Error ? err.stack : err}`);
    process.exit(1);
  });
}
