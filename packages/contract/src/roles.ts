import { z } from 'zod';

import { type Role, roles } from './constants.ts';

export { isRole, type Role, roles } from './constants.ts';
export const role = z.enum(roles);

export const adminRoles: readonly Role[] = ['admin', 'adminreadonly'];
export const readonlyRoles: readonly Role[] = ['adminreadonly', 'defaultreadonly'];
