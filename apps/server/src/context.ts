import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Mailer } from './lib/mailer.ts';
import type { SharedStore } from './lib/shared-store.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { UsersRepository } from './modules/users/users.repository.ts';

/** What every module gets: built once in app.ts, in dependency order. */
export interface AppContext {
  config: Config;
  database: Database;
  store: SharedStore;
  mailer: Mailer;
  users: UsersRepository;
  auth: AuthService;
}
