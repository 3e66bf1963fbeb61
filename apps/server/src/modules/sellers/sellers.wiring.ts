import type { AppContext } from '../../context.ts';
import { createSellersRepository } from './sellers.repository.ts';
import { createSellers, type Sellers } from './sellers.service.ts';

const built = new WeakMap<AppContext, Sellers>();

/** One sellers service (and sellers.json cache) per server. */
export function sellersOf(ctx: AppContext): Sellers {
  let s = built.get(ctx);
  if (!s) {
    s = createSellers(createSellersRepository(ctx.database.db), ctx.config);
    built.set(ctx, s);
  }
  return s;
}
