export * from './rules.ts';
export { subject, ForbiddenError } from '@casl/ability';
