/** A document's scaffold as a shared set: checking and writing a person's edit, and its lines for a diff. */
import { ApiError } from '../../../shared/api';
import { scaffoldContentProblems } from '../../../shared/scaffold/content';
import type { ScaffoldContent } from '../../../shared/scaffold/domain';
import type { SetEditor } from '../versioned-sets';

type Line = {
  kind: string;
  key: string;
  text: string;
  tier: string | null;
  answer: string | null;
  entity: string | null;
};

const line = (i: Line) =>
  i.kind === 'attribute'
    ? `attribute ${i.entity ?? ''}/${i.key}: ${i.text}`
    : `${i.kind} ${i.key} (${i.tier ?? ''}): ${i.text}${i.kind === 'question' ? ` → ${i.answer ?? ''}` : ''}`;

export const scaffoldEditor: SetEditor<'scaffold'> = {
  kind: 'scaffold',
  subject: (documentKey) => `The scaffold of document ${documentKey}`,
  count: 'one',
  place: (_repo, documentKey) => ({ documentKey, summaryKey: null }),
  currentVersion: (repo, documentKey) => repo.scaffold.currentScaffold(documentKey)?.version ?? null,
  check(_repo, _documentKey, content) {
    const problems = scaffoldContentProblems(content);
    if (problems.length > 0)
      throw new ApiError({ code: 'invalid_input', message: `This scaffold cannot be saved: ${problems.join('; ')}.` });
  },
  write(repo, documentKey, who, edited, note) {
    const content: ScaffoldContent = edited;
    const current = repo.scaffold.currentScaffold(documentKey);
    const id = current
      ? repo.scaffold.editScaffold(current.id, { content, editorId: who.id, note })
      : repo.scaffold.insertScaffold(documentKey, {
          source: 'person',
          maker: `person:${who.name}`,
          makerVersion: '1',
          basedOnId: null,
          createdBy: who.id,
          note,
          importKey: null,
          importId: null,
          content,
        });
    return repo.scaffold.scaffold(id)!.version;
  },
  versionLines(repo, documentKey, version) {
    const row = repo.scaffold.versions(documentKey).find((v) => v.version === version);
    return row ? repo.scaffold.items(row.id).map(line) : [];
  },
  contentLines: (_repo, _documentKey, { facts, questions, entities }) => [
    ...facts.map((f) => line({ kind: 'fact', key: f.id, text: f.text, tier: f.tier, answer: null, entity: null })),
    ...questions.map((q) =>
      line({ kind: 'question', key: q.id, text: q.text, tier: q.tier, answer: q.answer, entity: null }),
    ),
    ...entities.flatMap((e) =>
      e.attributes.map((a) =>
        line({ kind: 'attribute', key: a.id, text: a.text, tier: null, answer: null, entity: e.name }),
      ),
    ),
  ],
};
