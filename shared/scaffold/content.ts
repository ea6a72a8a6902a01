/**
 * The rules every scaffold version keeps, wherever it comes from (an import, an extraction, a
 * person's edit): at least one main fact, and ids unique within facts, within questions and within
 * attributes (across the document's entities).
 */
import type { ScaffoldContent } from './domain';

export class ScaffoldContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScaffoldContentError';
  }
}

export function scaffoldContentProblems(content: ScaffoldContent): string[] {
  const problems: string[] = [];
  if (!content.facts.some((f) => f.tier === 'main')) problems.push('a scaffold needs at least one main fact');
  const unique = (what: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${what} id "${id}" is used twice`);
      seen.add(id);
    }
  };
  unique(
    'fact',
    content.facts.map((f) => f.id),
  );
  unique(
    'question',
    content.questions.map((q) => q.id),
  );
  unique(
    'attribute',
    content.entities.flatMap((e) => e.attributes.map((a) => a.id)),
  );
  return problems;
}

export function checkScaffoldContent(content: ScaffoldContent): void {
  const problems = scaffoldContentProblems(content);
  if (problems.length > 0) throw new ScaffoldContentError(problems.join('; '));
}
