export * from './prng';
export * from './bootstrap';
export * from './correlation';
export * from './binary-association';
export * from './epsilon0';
export * from './calibration';
export * from './prevalence';
