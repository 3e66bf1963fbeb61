import { z } from 'zod';

export const roles = [
  'dummy',
  'admin',
  'adminreadonly',
  'default',
  'defaultreadonly',
  'agency',
  'agencymember',
] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

export const adminRoles: readonly Role[] = ['admin', 'adminreadonly'];
export const readonlyRoles: readonly Role[] = ['adminreadonly', 'defaultreadonly'];
