/**
 * The annotator links of one `loupe serve` process: each a random token bound to one
 * annotator. Kept in this process's memory only (a restart ends every link; tokens are never
 * written to the project or logged). A revoked link is forgotten at once, so its next request
 * is refused before anything it sent is read.
 */
import { randomBytes } from 'node:crypto';
import type { AnnotatorLink, Caller } from '../../shared/api';
import type { LinkRegistry } from '../core/index';
import { newToken, sameSecret } from './secret';

export interface ServeLinkRegistry extends LinkRegistry {
  /** Where links point (the server's origin), known once it listens; links made before wait for it. */
  setOrigin(origin: string): void;
}

interface LiveLink {
  id: string;
  annotator: string;
  token: string;
  createdAt: string;
}

export function linkUrl(origin: string, token: string): string {
  return `${origin}/?token=${token}`;
}

export function createLinkRegistry(): ServeLinkRegistry {
  const live = new Map<string, LiveLink>();
  let origin: string | null = null;

  const listed = (l: LiveLink): AnnotatorLink => ({
    id: l.id,
    annotator: l.annotator,
    createdAt: l.createdAt,
    url: null,
  });

  return {
    setOrigin(value) {
      origin = value;
    },
    list: () => [...live.values()].map(listed),
    create(annotator) {
      if (origin === null) throw new Error('annotator links are made once the server listens');
      const link: LiveLink = {
        id: randomBytes(6).toString('hex'),
        annotator,
        token: newToken(),
        createdAt: new Date().toISOString(),
      };
      live.set(link.id, link);
      return { ...listed(link), url: linkUrl(origin, link.token) };
    },
    revoke: (id) => live.delete(id),
    callerFor(token): Caller | null {
      // Compare against every live token (constant-time each), so the answer's timing names none.
      let found: LiveLink | null = null;
      for (const link of live.values()) if (sameSecret(token, link.token)) found = link;
      return found === null ? null : { role: 'annotator', annotator: found.annotator };
    },
  };
}
