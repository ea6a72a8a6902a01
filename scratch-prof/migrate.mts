import Database from 'better-sqlite3';
import { openProjectDatabase } from '../db/open';
openProjectDatabase(Database as never, '/tmp/prof/p20k.loupe', { create: false }).close();
