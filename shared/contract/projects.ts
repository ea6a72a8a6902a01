/**
 * projects.*: the project file the host has open, recent projects and the demo.
 */
import { z } from 'zod';
import { Empty } from './primitives';

export const ProjectInfoSchema = z.object({
  path: z.string(),
  name: z.string(),
  schemaVersion: z.number().int(),
  isDemo: z.boolean(),
});
export type ProjectInfo = z.infer<typeof ProjectInfoSchema>;

/** Recently opened projects, newest first. */
export const RecentSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));

export const PROJECTS_API = {
  'projects.recent': { input: Empty, output: RecentSchema },
  'projects.open': { input: z.object({ path: z.string().min(1) }), output: ProjectInfoSchema },
  'projects.create': { input: z.object({ path: z.string().min(1) }), output: ProjectInfoSchema },
  'projects.openDemo': { input: Empty, output: ProjectInfoSchema },
} as const;
