import type { AppContext } from '../../context.ts';
import { createPartnersRepository } from './partners.repository.ts';
import { createPartnersService, type PartnersService } from './partners.service.ts';

const built = new WeakMap<AppContext, PartnersService>();

/** The partners service of a server, built once from its context (repository on its database). */
export function partnersOf(ctx: AppContext): PartnersService {
  let service = built.get(ctx);
  if (!service) {
    service = createPartnersService({
      repo: createPartnersRepository(ctx.database.db),
      agencies: ctx.agencies,
      users: ctx.users,
      storage: ctx.storage,
    });
    built.set(ctx, service);
  }
  return service;
}
