import type { SharedStore } from '../../lib/shared-store.ts';
import type { DspPartnersRepository } from '../../modules/dsp-partners/dsp-partners.repository.ts';
import type { DspStatsRepository } from '../../modules/dsp-partners/dsp-stats.repository.ts';
import { createExchange, type ExchangeDeps, type LivePartner } from './exchange.ts';

export type { DspWin, Exchange, SlotOffer } from './exchange.ts';

/** The auction's view of the active partners: their lists with their blacklist items merged in. */
export async function livePartners(repo: DspPartnersRepository): Promise<LivePartner[]> {
  const { partners, items } = await repo.active();
  return partners.map((p) => ({
    id: p.id,
    name: p.name,
    endpoint: p.endpoint,
    openrtbVersion: p.openrtbVersion === '2.6' ? '2.6' : '2.5',
    dailyMoneyLimit: p.dailyMoneyLimit,
    dailyBudgetLimit: p.dailyBudgetLimit,
    maxRequestTime: p.maxRequestTime,
    whitelist: p.whitelist,
    blacklist: [...p.blacklist, ...items.filter((i) => i.id === p.id).map((i) => i.source)],
    adPosition: p.adPosition,
  }));
}

/** The exchange delivery serves with: partners from dsp_partners, counts into dsp_rollups. */
export function createDeliveryExchange(
  deps: {
    repo: DspPartnersRepository;
    stats: DspStatsRepository;
    store: SharedStore;
    publicUrl: string;
  } & Pick<ExchangeDeps, 'allowLoopback' | 'log' | 'flushMs'>,
) {
  return createExchange({
    load: () => livePartners(deps.repo),
    stats: deps.stats,
    store: deps.store,
    schainDomain: new URL(deps.publicUrl).hostname,
    allowLoopback: deps.allowLoopback,
    log: deps.log,
    ...(deps.flushMs !== undefined ? { flushMs: deps.flushMs } : {}),
  });
}
