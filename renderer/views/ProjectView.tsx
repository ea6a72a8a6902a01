/** Project: what is in it (datasets), how to get data in (import), sample it and get labels out. */
import { useEffect } from 'react';
import { FAST_MS, refreshProject, setProjectError, useProject } from '../state/project';
import { useSession } from '../state/session';
import { ErrorBanner } from '../components/ErrorBanner';
import { useChanges } from '../components/useChanges';
import { AnnotatorsTable } from '../components/project/AnnotatorsTable';
import { DatasetsTable } from '../components/project/DatasetsTable';
import { ExportPanel } from '../components/project/ExportPanel';
import { ImportPanel } from '../components/project/ImportPanel';
import { LinksPanel } from '../components/project/LinksPanel';
import { MergePanel } from '../components/project/MergePanel';
import { ProposalsPanel } from '../components/project/ProposalsPanel';
import { SamplePanel } from '../components/project/SamplePanel';

export function ProjectView() {
  const project = useSession((state) => state.info?.project ?? null);
  const { datasets, batches, annotators, error } = useProject();

  useEffect(() => {
    void refreshProject();
  }, [project?.path]);
  // Datasets, samples, annotators and their progress changed elsewhere: the tables again.
  useChanges(['datasets', 'imports', 'annotators', 'annotation', 'sampling', 'links', 'merge'], () => refreshProject());

  const refresh = () => void refreshProject();

  return (
    <div className="project-view">
      <ErrorBanner message={error} onDismiss={() => setProjectError(null)} />
      <section className="panel" aria-labelledby="datasets-title">
        <h2 id="datasets-title">Datasets {project && <span className="muted">in {project.name}</span>}</h2>
        <DatasetsTable datasets={datasets} />
      </section>
      <section className="panel" aria-labelledby="annotators-title">
        <h2 id="annotators-title">Annotators</h2>
        <AnnotatorsTable annotators={annotators} fastMs={FAST_MS} />
      </section>
      <LinksPanel />
      <ProposalsPanel />
      <ImportPanel onImported={refresh} />
      <MergePanel onMerged={refresh} />
      <SamplePanel datasets={datasets} batches={batches} onDrawn={refresh} />
      <ExportPanel datasets={datasets} />
    </div>
  );
}
