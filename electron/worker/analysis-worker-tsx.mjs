// Starts the analysis worker from its TypeScript source (CLI and `loupe serve` under tsx, and
// the tests): a worker thread does not get tsx's loader from the parent on Node 20 (measured:
// ERR_UNKNOWN_FILE_EXTENSION), so register it here, then import the entry named in workerData.
// The Electron app never uses this file: it runs the bundled out/main/analysis-worker.cjs.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
