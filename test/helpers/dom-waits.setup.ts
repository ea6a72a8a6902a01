/**
 * Unit tier setup: in a DOM test file (happy-dom), Testing Library's waitFor / findBy wait for
 * their condition as long as the test may run, not for its 1 s default. A busy machine (CI, the
 * stress run's two busy loops) can take longer than a second to render or export, and a wait that
 * gives up after a fixed time fails there while the code is right; the test's own timeout
 * (vitest.config.ts) still ends a wait for something that never comes.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 25_000 });
}
export {};
