/**
 * The single entry every host uses (IPC in the desktop app, HTTP in `loupe serve`): checks the
 * method name, validates the input, runs the handler, validates (and thereby strips) the output,
 * and turns every failure into an error value the UI can show.
 */
import {
  API,
  ApiError,
  LEAD,
  isApiMethod,
  parseApiInput,
  refusalFor,
  type ApiHandlers,
  type Caller,
  type Envelope,
} from '../../shared/api';
import { ImportValidationError } from '../../shared/formats/types';

/**
 * `caller` is who the host says is calling (desktop and CLI: the lead; `loupe serve`: the lead or
 * the annotator its token belongs to). Roles are checked here, after validation and before any
 * handler runs, so a refused call stores nothing.
 */
export async function dispatch(
  handlers: ApiHandlers,
  method: unknown,
  rawInput: unknown,
  caller: Caller = LEAD,
): Promise<Envelope> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'not_found', message: `Unknown method ${JSON.stringify(method)}` } };
  }
  const spec = API[method];
  const parsed = parseApiInput(method, rawInput);
  if (!parsed.ok) return parsed;
  const refusal = refusalFor(caller, method, parsed.value);
  if (refusal) return { ok: false, error: refusal };
  try {
    const handler = handlers[method] as (input: unknown, caller: Caller) => Promise<unknown>;
    const value: unknown = await handler(parsed.value, caller);
    // Parsing the output strips any field the contract does not name (blindness, key hygiene).
    return { ok: true, value: spec.output.parse(value) };
  } catch (err) {
    return { ok: false, error: toErrorBody(err) };
  }
}

export function toErrorBody(
  err: unknown,
): Envelope extends infer E ? (E extends { ok: false; error: infer B } ? B : never) : never {
  if (err instanceof ApiError) return err.toBody();
  if (err instanceof ImportValidationError) {
    return { code: 'import_failed', message: err.message, problems: err.problems };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
