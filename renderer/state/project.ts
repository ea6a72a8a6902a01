/** The Project view's data: datasets with their counts, the sample batches drawn so far, the annotators' activity. */
import { create } from 'zustand';
import type { AnnotatorActivity, DatasetStats, SampleBatchInfo } from '../../shared/api';
import { errorMessage } from '../api/errors';
import { bridge } from './session';

interface ProjectState {
  datasets: DatasetStats[];
  batches: SampleBatchInfo[];
  annotators: AnnotatorActivity[];
  loading: boolean;
  error: string | null;
}

export const useProject = create<ProjectState>(() => ({
  datasets: [],
  batches: [],
  annotators: [],
  loading: false,
  error: null,
}));

/** Decisions faster than this are flagged (the review queues use the same default). */
export const FAST_MS = 2000;

export async function refreshProject(): Promise<void> {
  useProject.setState({ loading: true });
  try {
    const [datasets, batches, annotators] = await Promise.all([
      bridge().call('datasets.list', {}),
      bridge().call('sampling.list', {}),
      bridge().call('annotators.activity', { fastMs: FAST_MS }),
    ]);
    useProject.setState({ datasets, batches, annotators, loading: false, error: null });
  } catch (err) {
    useProject.setState({ loading: false, error: errorMessage(err) });
  }
}

export function setProjectError(error: string | null): void {
  useProject.setState({ error });
}
