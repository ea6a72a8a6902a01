/**
 * The `loupe` entry point (bundled to out/cli/loupe.cjs): parses argv with the command line of
 * electron/cli/program.ts. Exit 1: the contract (or the core) refused, with its message; exit 2:
 * a mistake in the command line itself.
 */
import { ApiError } from '../../shared/api';
import { formatProblem } from '../../shared/formats/types';
import { Refusal, UsageError } from './client';
import { buildProgram } from './program';

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof Refusal && err.body.problems && err.body.problems.length > 0) {
      // An import's problems, one per line with file, line and field.
      process.stderr.write(
        `\n${err.message.split('\n')[0]}\n${err.body.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n`,
      );
      process.exit(1);
    }
    if (err instanceof Refusal || err instanceof ApiError || err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
