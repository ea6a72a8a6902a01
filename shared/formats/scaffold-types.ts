/**
 * What the Semantic Scaffold importers (kinds `scaffold` and `scaffold-alignments`) hand
 * to the import service: scaffolds per document, and alignments per (summary, source). Items are
 * addressed by the ids the file gives them; alignments are resolved against the document's current
 * scaffold version at import.
 */
import type { AlignmentContent, AlignmentSource, ScaffoldContent } from '../scaffold/domain';
import type { SourceRef } from './source-ref';

export interface ImportedScaffold extends ScaffoldContent {
  dataset: string;
  docId: string;
  /** Who extracted it (the file's `extractor`, else `import:<file>`). */
  maker: string;
  makerVersion: string;
  source: SourceRef;
}

export interface ImportedAlignment extends AlignmentContent {
  dataset: string;
  summaryId: string;
  alignedBy: AlignmentSource;
  source: SourceRef;
}

export interface ScaffoldImport {
  scaffolds: ImportedScaffold[];
  alignments: ImportedAlignment[];
}
