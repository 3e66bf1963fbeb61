import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, refreshTokens, settings } from '../../db/schema/index.ts';

export function createAuthRepository(db: Db) {
  return {
    async insertRefreshToken(v: { userId: number; familyId?: string; tokenHash: string; expiresAt: Date }) {
      await db.insert(refreshTokens).values({ ...v, familyId: v.familyId ?? randomUUID() });
    },
    /**
     * Spends a refresh token in one statement, so two concurrent refreshes with the same token cannot
     * both succeed. Returns undefined when the token is unknown, spent, revoked or expired.
     */
    async spendRefreshToken(tokenHash: string) {
      const [row] = await db
        .update(refreshTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.tokenHash, tokenHash),
            isNull(refreshTokens.usedAt),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, new Date()),
          ),
        )
        .returning();
      return row;
    },
    async findRefreshToken(tokenHash: string) {
      const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
      return row;
    },
    async revokeFamily(familyId: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },
    async revokeAllOfUser(userId: number) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
    async insertPasswordReset(v: { userId: number; tokenHash: string; expiresAt: Date }) {
      await db.insert(passwordResets).values(v);
    },
    async spendPasswordReset(tokenHash: string) {
      const [row] = await db
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResets.tokenHash, tokenHash),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, new Date()),
          ),
        )
        .returning();
      return row;
    },
    /** Reads a shared setting, creating it with `make()` on first use (first writer wins across instances). */
    async setting(key: string, make: () => string): Promise<string> {
      await db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, key));
      if (!row) throw new Error(`setting ${key} missing`);
      return row.value;
    },
    async now(): Promise<Date> {
      const result = await db.execute(sql`select now() as now`);
      return new Date(String((result as unknown as { rows: { now: string }[] }).rows[0]?.now));
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
