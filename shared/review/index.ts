/** The review rules, pure: queues, Table 4, resolved and corrected labels, anonymised names. */
export * from './rows';
export * from './dataset';
export * from './queues';
export * from './table4';
export * from './corrections';
export * from './anonymise';
export * from './fast';
