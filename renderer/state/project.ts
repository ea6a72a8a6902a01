/** The Project view's data: datasets with their counts and the sample batches drawn so far. */
import { create } from 'zustand';
import type { DatasetStats, SampleBatch } from '../../shared/api';
import { errorMessage } from '../api/errors';
import { bridge } from './session';

interface ProjectState {
  datasets: DatasetStats[];
  batches: SampleBatch[];
  loading: boolean;
  error: string | null;
}

export const useProject = create<ProjectState>(() => ({ datasets: [], batches: [], loading: false, error: null }));

export async function refreshProject(): Promise<void> {
  useProject.setState({ loading: true });
  try {
    const [datasets, batches] = await Promise.all([
      bridge().call('datasets.list', {}),
      bridge().call('sampling.list', {}),
    ]);
    useProject.setState({ datasets, batches, loading: false, error: null });
  } catch (err) {
    useProject.setState({ loading: false, error: errorMessage(err) });
  }
}

export function setProjectError(error: string | null): void {
  useProject.setState({ error });
}
