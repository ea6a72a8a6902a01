/** No project open: open the demo, create or open one, or pick a recent one (desktop only). */
import { useEffect, useState } from 'react';
import type { ApiOutput } from '../../shared/api';
import {
  bridge,
  createProjectWithDialog,
  openDemoProject,
  openProjectAt,
  openProjectWithDialog,
  useSession,
} from '../state/session';

type Recent = ApiOutput<'projects.recent'>;

export function StartView() {
  const canSwitch = useSession((state) => state.info?.canSwitchProjects ?? false);
  const [recent, setRecent] = useState<Recent>([]);

  useEffect(() => {
    if (!canSwitch) return;
    bridge()
      .call('projects.recent', {})
      .then(setRecent, () => setRecent([]));
  }, [canSwitch]);

  if (!canSwitch) {
    return (
      <div className="start-view" data-testid="start">
        <h1>Loupe</h1>
        <p>
          This server has no project open. Start it again with a project: <code>loupe serve PROJECT.loupe</code>.
        </p>
      </div>
    );
  }

  return (
    <div className="start-view" data-testid="start">
      <h1>Loupe</h1>
      <p className="muted">Blind, sentence-level faithfulness annotation.</p>
      <div className="row">
        <button type="button" className="primary" onClick={() => void openDemoProject()} data-testid="open-demo">
          Open demo project
        </button>
        <button type="button" onClick={() => void createProjectWithDialog()} data-testid="new-project">
          New project…
        </button>
        <button type="button" onClick={() => void openProjectWithDialog()} data-testid="open-project">
          Open project…
        </button>
      </div>
      {recent.length > 0 && (
        <section className="recent">
          <h2>Recent</h2>
          <ul>
            {recent.map((item) => (
              <li key={item.path}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => void openProjectAt(item.path)}
                  title={item.path}
                >
                  {item.name}
                </button>{' '}
                <span className="muted">{item.path}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
