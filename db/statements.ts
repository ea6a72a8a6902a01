/**
 * Prepared statements kept per SQL text for one connection. Preparing costs far more than running
 * a small statement, so SQL run once per row of a large import or snapshot is prepared once.
 * A statement is only ever run with .run/.get/.all here (never left iterating), so sharing it is safe.
 */
import type { Statement } from 'better-sqlite3';
import type { Database } from './open';

export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  get(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
}
