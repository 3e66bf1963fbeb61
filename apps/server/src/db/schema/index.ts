export * from './agencies.ts';
export * from './auth.ts';
export * from './delivery.ts';
export * from './inventory.ts';
export * from './money.ts';
export * from './revenue-terms.ts';
export * from './system.ts';
export * from './users.ts';
