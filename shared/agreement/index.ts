export * from './types';
export * from './coefficients';
export * from './report';
