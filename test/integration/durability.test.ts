/**
 * A label is durable before it is acknowledged: kill `loupe serve` with SIGKILL right after a
 * burst of acknowledged labels, reopen the project file, and find every one of them.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp';
import { mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { apiCall, startServe } from '../helpers/serve';

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged label', async () => {
    const dir = tempDir();
    const project = join(dir, 'durable.loupe');
    mustLoupe(['import', writeJsonl(join(dir, 'news.jsonl'), newsRows(20)), '--project', project]);
    mustLoupe(['sample', '--project', project, '--dataset', 'news', '--n', '20', '--seed', '0']);
    const serve = await startServe(['--project', project, '--annotator', 'ann'], { LOUPE_STATE_DIR: dir });
    const queue = await apiCall<{ items: Array<{ key: number }> }>(serve, 'annotation.queue', { annotator: 'ann' });
    const acknowledged: number[] = [];
    const labels = ['faithful', 'unfaithful', 'unclear'] as const;
    // Several writers at once, as a quick annotator's keypresses and a second tab would be.
    await Promise.all(
      queue.items.map(async (item, i) => {
        const summary = await apiCall<{ units: Array<{ id: number }> }>(serve, 'annotation.load', {
          key: item.key,
          annotator: 'ann',
        });
        for (const unit of summary.units) {
          const label = labels[(unit.id + i) % 3]!;
          const ack = await apiCall<{ eventId: number }>(serve, 'annotation.record', {
            unitId: unit.id,
            annotator: 'ann',
            state: { label, errorType: null, note: null },
            timeSpentMs: 900,
            cause: 'label',
          });
          acknowledged.push(ack.eventId);
        }
      }),
    );
    await serve.stop('SIGKILL');
    expect(serve.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBe(60);

    const db = new Database(project, { readonly: true });
    const stored = db.prepare('SELECT id FROM label_events WHERE cause = ?').all('label') as Array<{ id: number }>;
    db.close();
    expect(new Set(stored.map((r) => r.id))).toEqual(new Set(acknowledged));
  });
});
