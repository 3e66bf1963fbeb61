/** A field's ids to check, and a reader of which ids exist. */
type Check = { field: string; ids: readonly string[] };

/**
 * The 422s of ids that name nothing (DESIGN.md: an unknown id is a 422 on its field): per field, the ids
 * `existing` does not know, as `unknown_ids` with the ids listed; one read for every field's ids.
 */
export async function unknownIdErrors(
  checks: readonly Check[],
  existing: (ids: number[]) => Promise<Set<number>>,
): Promise<{ field: string; code: string; params: { ids: string } }[]> {
  const known = await existing([...new Set(checks.flatMap((c) => c.ids))].map(Number));
  return checks.flatMap(({ field, ids }) => {
    const unknown = ids.filter((id) => !known.has(Number(id)));
    return unknown.length ? [{ field, code: 'unknown_ids', params: { ids: unknown.join(', ') } }] : [];
  });
}
