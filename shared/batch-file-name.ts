/**
 * The name a batch request file is offered under (a download, the desktop's Save dialog): what it
 * is for (a judge's name, a task and its model) made safe for any file system, then `-requests.jsonl`.
 */
export function requestFileName(subject: string, fallback: string): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe || fallback}-requests.jsonl`;
}
