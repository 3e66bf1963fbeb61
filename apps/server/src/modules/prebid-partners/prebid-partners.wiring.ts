import type { AppContext } from '../../context.ts';
import { createPrebidPartnersRepository } from './prebid-partners.repository.ts';
import { createPrebidPartnersService, type PrebidPartnersService } from './prebid-partners.service.ts';

const built = new WeakMap<AppContext, PrebidPartnersService>();

/** The Prebid partners service of a server, built once from its context (repository on its database). */
export function prebidPartnersOf(ctx: AppContext): PrebidPartnersService {
  let service = built.get(ctx);
  if (!service) {
    const repo = createPrebidPartnersRepository(ctx.database.db, ctx.config.publicUrl);
    service = createPrebidPartnersService({ repo, publicUrl: ctx.config.publicUrl });
    built.set(ctx, service);
  }
  return service;
}
