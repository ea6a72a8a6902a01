/** The recent-projects list, a small JSON file in the app's state folder. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

const RecentFileSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));
export type RecentEntry = z.infer<typeof RecentFileSchema>[number];
const MAX_RECENT = 10;

export class RecentProjects {
  constructor(private readonly file: string) {}

  list(): RecentEntry[] {
    try {
      const parsed = RecentFileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return []; // No list yet, or an unreadable one: start afresh rather than fail to open.
    }
  }

  add(path: string, name: string): void {
    const entries = [
      { path, name, openedAt: new Date().toISOString() },
      ...this.list().filter((e) => e.path !== path),
    ].slice(0, MAX_RECENT);
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, JSON.stringify(entries, null, 2));
    renameSync(temp, this.file);
  }
}
