/**
 * What the accuracy importers (RealSumm, Loupe's claims/key-facts JSONL and CSV) hand to the
 * import service besides summaries: key-fact lists, claims, people's labels on both, judge
 * outputs on both and system outputs. Items are addressed by position: a claim by
 * (summary, claim index in the summary's claim set of this import, else the project's current
 * one), a key fact by (document, index in its key-fact list).
 */
import type { ClaimErrorType, ClaimLabel, KeyFactLabel, SystemFailure } from '../accuracy/domain';
import type { SourceRef } from './source-ref';

export interface ImportedKeyFactSet {
  dataset: string;
  docId: string;
  facts: string[];
  /** Who extracted them (the file's `extractor`, else `import:<file>`). */
  maker: string;
  makerVersion: string;
  source: SourceRef;
}

export interface ImportedClaimSet {
  dataset: string;
  summaryId: string;
  claims: Array<{ sentenceIndex: number; text: string }>;
  /** Who decomposed them (the file's `decomposer`, else `import:<file>`). */
  maker: string;
  makerVersion: string;
  source: SourceRef;
}

export interface ItemRefs {
  /** Claim indexes (into the summary's claim set). */
  claims: number[];
  /** Sentence indexes (0-based, into the summary's units). */
  sentences: number[];
}

export interface ImportedClaimLabel {
  dataset: string;
  summaryId: string;
  claimIndex: number;
  annotator: string;
  /** null: only a note (the annotator has not labeled the claim). */
  label: ClaimLabel | null;
  errorType: ClaimErrorType | null;
  sourceErrorType: string | null;
  note: string | null;
  source: SourceRef;
}

export interface ImportedKeyFactLabel {
  dataset: string;
  summaryId: string;
  factIndex: number;
  annotator: string;
  /** null: only a note (the annotator has not labeled the key fact). */
  label: KeyFactLabel | null;
  conveyedBy: ItemRefs;
  note: string | null;
  source: SourceRef;
}

/** FineSurE's sentence_labels: the sentence conveys at least one key fact of its document. */
export interface ImportedSentenceKeyFactLabel {
  dataset: string;
  summaryId: string;
  sentenceIndex: number;
  annotator: string;
  conveys: boolean;
  source: SourceRef;
}

export interface ImportedClaimPrediction {
  dataset: string;
  summaryId: string;
  claimIndex: number;
  judge: string;
  supported: boolean;
  errorType: ClaimErrorType | null;
  sourceErrorType: string | null;
  raw: string | null;
  source: SourceRef;
}

export interface ImportedKeyFactPrediction {
  dataset: string;
  summaryId: string;
  factIndex: number;
  judge: string;
  covered: boolean;
  conveyedBy: ItemRefs;
  raw: string | null;
  source: SourceRef;
}

export interface ImportedSentenceKeyFactPrediction {
  dataset: string;
  summaryId: string;
  sentenceIndex: number;
  judge: string;
  conveys: boolean;
  source: SourceRef;
}

/** A system's output for one document: its summary (by id) or the recorded failure. */
export interface ImportedSystemOutput {
  dataset: string;
  docId: string;
  system: string;
  summaryId: string | null;
  failure: SystemFailure | null;
  failureMessage: string | null;
  source: SourceRef;
}

export interface AccuracyImport {
  keyFactSets: ImportedKeyFactSet[];
  claimSets: ImportedClaimSet[];
  claimLabels: ImportedClaimLabel[];
  keyFactLabels: ImportedKeyFactLabel[];
  sentenceKeyFactLabels: ImportedSentenceKeyFactLabel[];
  claimPredictions: ImportedClaimPrediction[];
  keyFactPredictions: ImportedKeyFactPrediction[];
  sentenceKeyFactPredictions: ImportedSentenceKeyFactPrediction[];
  systemOutputs: ImportedSystemOutput[];
}

export function emptyAccuracyImport(): AccuracyImport {
  return {
    keyFactSets: [],
    claimSets: [],
    claimLabels: [],
    keyFactLabels: [],
    sentenceKeyFactLabels: [],
    claimPredictions: [],
    keyFactPredictions: [],
    sentenceKeyFactPredictions: [],
    systemOutputs: [],
  };
}
