/**
 * app.*: what the host is and can do, and who the caller is.
 */
import { z } from 'zod';
import { Empty } from './primitives';
import { ProjectInfoSchema } from './projects';

export const HostInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  /** Native open/save dialogs exist (desktop); the browser uploads and downloads instead. */
  fileDialogs: z.boolean(),
  /** The caller may name paths on this machine's disk (desktop, CLI); never `loupe serve`. */
  diskPaths: z.boolean(),
  /** The host may switch projects (desktop); `loupe serve` is bound to one project. */
  canSwitchProjects: z.boolean(),
  /** API keys can be kept in the OS keychain (desktop with safeStorage). */
  keychain: z.boolean(),
  project: ProjectInfoSchema.nullable(),
  /**
   * Who this connection is: the lead (everything) or one annotator, whose link allows
   * only that annotator's annotation calls (ANNOTATOR_METHODS). The desktop app and the CLI are
   * the lead.
   */
  role: z.enum(['lead', 'annotator']),
  /** The annotator of an annotator link (fixed); for the lead, a preselected name or null. */
  annotator: z.string().nullable(),
});
export type HostInfo = z.infer<typeof HostInfoSchema>;

/** Menu actions the desktop host sends to the renderer. */
export const MENU_ACTIONS = ['new-project', 'open-project', 'open-demo', 'import', 'export', 'project-opened'] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

export const APP_API = {
  'app.info': { input: Empty, output: HostInfoSchema },
} as const;

/** An annotator link may ask what the host is. */
export const APP_ANNOTATOR_METHODS = { 'app.info': null } as const;
