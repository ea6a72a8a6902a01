/**
 * A plan of the annotation (planning.plan) for the given input: fetched when the input (or `key`,
 * e.g. the number of draws) changes; an answer to an older input is dropped. The plan is computed
 * in the core's worker, so the call may take a moment: `busy` says so.
 */
import { useEffect, useState } from 'react';
import type { PlanInput } from '../../../shared/api';
import type { PlanReport } from '../../../shared/analysis/planning';
import { errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';

export interface PlanState {
  plan: PlanReport | null;
  error: string | null;
  busy: boolean;
}

export function usePlan(input: PlanInput | null, key: unknown = null): PlanState {
  const [state, setState] = useState<PlanState>({ plan: null, error: null, busy: input !== null });
  const request = input === null ? null : JSON.stringify(input);
  useEffect(() => {
    if (request === null) return;
    let current = true;
    setState((previous) => ({ ...previous, busy: true }));
    bridge()
      .call('planning.plan', JSON.parse(request) as PlanInput)
      .then(
        (plan) => current && setState({ plan, error: null, busy: false }),
        (err: unknown) => current && setState({ plan: null, error: errorMessage(err), busy: false }),
      );
    return () => {
      current = false;
    };
  }, [request, key]);
  return state;
}
