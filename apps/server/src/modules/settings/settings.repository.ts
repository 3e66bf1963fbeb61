import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

/** Platform settings as key/value rows. */
export function createSettingsRepository(db: Db) {
  return {
    async read(key: string): Promise<string | undefined> {
      const [row] = await db.select().from(settings).where(eq(settings.key, key));
      return row?.value;
    },
    async write(key: string, value: string) {
      await db
        .insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
