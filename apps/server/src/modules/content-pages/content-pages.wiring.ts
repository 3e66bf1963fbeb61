import type { AppContext } from '../../context.ts';
import { createContentPagesRepository } from './content-pages.repository.ts';
import { type ContentPagesService, createContentPagesService } from './content-pages.service.ts';

const built = new WeakMap<AppContext, ContentPagesService>();

/** The content pages service of a server, built once from its context (repository on its database). */
export function contentPagesOf(ctx: AppContext): ContentPagesService {
  let service = built.get(ctx);
  if (!service) {
    service = createContentPagesService({ repo: createContentPagesRepository(ctx.database.db) });
    built.set(ctx, service);
  }
  return service;
}
