import { migration001 } from './001_initial';
import { migration002 } from './002_judges';
import { migration003 } from './003_review';
import { migration004 } from './004_merge';
import { migration005 } from './005_assignments';
import { migration006 } from './006_task_results';
import { migration007 } from './007_identities_reveals';
import { migration008 } from './008_claims_keyfacts_systems';
import { migration009 } from './009_scaffolds';
import { migration010 } from './010_proposals';
import { migration011 } from './011_error_types_merge_origins';
import { migration012 } from './012_batch_exports';
import { migration013 } from './013_scaffold_item_notes';
import { migration014 } from './014_list_pages';
import { migration015 } from './015_count_indexes';
import { migration016 } from './016_queue_counts';

/**
 * Forward-only migrations: entry i moves the schema from version i to i+1 (PRAGMA user_version).
 * Never edit a shipped entry; append a new one, with a test that migrates a populated database.
 */
export const MIGRATIONS: readonly string[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
];
export const SCHEMA_VERSION = MIGRATIONS.length;
