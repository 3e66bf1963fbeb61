/**
 * The rows of a raw `execute` answer: both drivers (node-postgres, PGlite) answer `{rows}`; the shared Db
 * type cannot say so.
 * @example const [row] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text n from users`));
 */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
