export { ForbiddenError, subject } from '@casl/ability';
export * from './rules.ts';
