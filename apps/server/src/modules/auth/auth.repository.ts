import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailChanges, passwordResets, refreshTokens, settings, users } from '../../db/schema/index.ts';

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
    /** Whether a session (refresh token family) still stands: some token of it is not revoked. */
    async familyLive(familyId: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
        .limit(1);
      return row !== undefined;
    },
    async revokeFamily(familyId: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },
    /** Revokes every session (refresh token family) of a user, except `keepFamily` when given. */
    async revokeAllOfUser(userId: number, keepFamily?: string) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.userId, userId),
            isNull(refreshTokens.revokedAt),
            keepFamily ? ne(refreshTokens.familyId, keepFamily) : undefined,
          ),
        );
    },
    async insertPasswordReset(v: { userId: number; tokenHash: string; expiresAt: Date }) {
      await db.insert(passwordResets).values(v);
    },
    /** Spends every outstanding reset link of a user (after a reset, older links must not work). */
    async spendPasswordResetsOf(userId: number) {
      await db
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    },
    /** Spends every pending e-mail change of a user (its address was set by an admin meanwhile). */
    async spendEmailChangesOf(userId: number) {
      await db
        .update(emailChanges)
        .set({ usedAt: new Date() })
        .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
    },
    /** A new pending e-mail change; any older pending change of the user stops working. */
    async insertEmailChange(v: {
      userId: number;
      email: string;
      tokenHash: string;
      familyId: string | null;
      expiresAt: Date;
    }) {
      await db.transaction(async (tx) => {
        await tx
          .update(emailChanges)
          .set({ usedAt: new Date() })
          .where(and(eq(emailChanges.userId, v.userId), isNull(emailChanges.usedAt)));
        await tx.insert(emailChanges).values(v);
      });
    },
    /**
     * Spends an e-mail change token and moves the user to the new address in one transaction.
     * Undefined when the token is unknown, spent or expired; throws the unique violation when the
     * address was taken in the meantime (nothing is spent then).
     */
    async confirmEmailChange(tokenHash: string) {
      return db.transaction(async (tx) => {
        const [change] = await tx
          .update(emailChanges)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(emailChanges.tokenHash, tokenHash),
              isNull(emailChanges.usedAt),
              gt(emailChanges.expiresAt, new Date()),
            ),
          )
          .returning();
        if (!change) return undefined;
        const [user] = await tx
          .update(users)
          .set({ email: change.email, updatedAt: new Date() })
          .where(eq(users.id, change.userId))
          .returning({ id: users.id, email: users.email });
        if (!user) return undefined;
        // reset links mailed to the old address must not outlive the move
        await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.userId, change.userId), isNull(passwordResets.usedAt)));
        return { userId: change.userId, email: user.email, familyId: change.familyId };
      });
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
