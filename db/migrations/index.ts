import { migration001 } from './001_initial';
import { migration002 } from './002_judges';

/**
 * Forward-only migrations: entry i moves the schema from version i to i+1 (PRAGMA user_version).
 * Never edit a shipped entry; append a new one, with a test that migrates a populated database.
 */
export const MIGRATIONS: readonly string[] = [migration001, migration002];
export const SCHEMA_VERSION = MIGRATIONS.length;
