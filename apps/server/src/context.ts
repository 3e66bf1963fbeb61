import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { WidgetItems } from './delivery/widget-items.ts';
import type { JobRunner } from './lib/jobs.ts';
import type { Mailer } from './lib/mailer.ts';
import type { SharedStore } from './lib/shared-store.ts';
import type { Storage } from './lib/storage.ts';
import type { AgenciesRepository } from './modules/agencies/agencies.repository.ts';
import type { AgenciesService } from './modules/agencies/agencies.service.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { CurrenciesRepository } from './modules/currencies/currencies.repository.ts';
import type { CurrenciesService } from './modules/currencies/currencies.service.ts';
import type { RatesCache } from './modules/currencies/rates.ts';
import type { Ledger } from './modules/ledger/ledger.service.ts';
import type { Referrals } from './modules/referrals/referrals.service.ts';
import type { SettingsService } from './modules/settings/settings.service.ts';
import type { SitesRepository } from './modules/sites/sites.repository.ts';
import type { SitesService } from './modules/sites/sites.service.ts';
import type { Topups } from './modules/topups/topups.service.ts';
import type { UsersRepository } from './modules/users/users.repository.ts';
import type { WidgetsRepository } from './modules/widgets/widgets.repository.ts';
import type { Withdrawals } from './modules/withdrawals/withdrawals.service.ts';

/** What every module gets: built once in app.ts, in dependency order. */
export interface AppContext {
  config: Config;
  database: Database;
  store: SharedStore;
  mailer: Mailer;
  users: UsersRepository;
  auth: AuthService;
  storage: Storage;
  jobs: JobRunner;
  rates: RatesCache;
  currencies: { repo: CurrenciesRepository; service: CurrenciesService };
  agencies: { repo: AgenciesRepository; service: AgenciesService };
  ledger: Ledger;
  settings: SettingsService;
  topups: Topups;
  withdrawals: Withdrawals;
  referrals: Referrals;
  sitesRepo: SitesRepository;
  sites: SitesService;
  widgetsRepo: WidgetsRepository;
  widgetItems: WidgetItems;
}
