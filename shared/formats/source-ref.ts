/** Where an imported record came from, for error messages and provenance (every format reader gives one). */
export interface SourceRef {
  /** File path as the user gave it (or relative to the imported folder). */
  file: string;
  /** 1-based line (JSONL, CSV) or record number (JSON arrays: `record` is set instead). */
  line?: number;
  record?: number;
}
