export * from './auth.ts';
export * from './common.ts';
export * from './errors.ts';
export * from './money.ts';
export * from './roles.ts';
export * from './users.ts';
export * from './validation.ts';
