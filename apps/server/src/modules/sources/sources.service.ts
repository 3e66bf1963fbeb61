import type { BlockedSource, blockedSourceInput, blockedSourceUpdate } from '@adp/contract';
import type { z } from 'zod';
import { AppError, orNotFound } from '../../lib/errors.ts';
import type { BlockedSourceRow, SourcesRepository } from './sources.repository.ts';

type BlockInput = z.output<typeof blockedSourceInput>;
type BlockUpdate = z.output<typeof blockedSourceUpdate>;

/**
 * Blocking traffic sources: the source is a site or widget of someone else's inventory, an approved one
 * unless an admin blocks it (an unknown or unapproved one is 422 on its field, as if it did not exist). A
 * source the campaign already blocks is not blocked twice: the block that holds takes the new reason and
 * end, and its publisher is not told again. Every change is announced to delivery by the table's trigger.
 */
export function createSourcesService(repo: SourcesRepository) {
  return {
    /** The block and whether it is new (false: the one that already held, updated). */
    async block(
      campaignId: number | null,
      input: BlockInput,
      createdBy: number,
      anyInventory = false,
    ): Promise<{ block: BlockedSource; created: boolean }> {
      const siteId = input.site_id === undefined ? null : Number(input.site_id);
      const widgetId = input.widget_id === undefined ? null : Number(input.widget_id);
      if (siteId !== null && !(await repo.siteExists(siteId, !anyInventory)))
        throw new AppError(422, 'not_found', {}, 'site_id');
      if (widgetId !== null && !(await repo.widgetExists(widgetId, !anyInventory)))
        throw new AppError(422, 'not_found', {}, 'widget_id');
      if (input.until !== null && new Date(input.until).getTime() <= Date.now())
        throw new AppError(422, 'in_past', {}, 'until');
      const { id, created } = await repo.blockOrRenew({
        campaignId,
        siteId,
        widgetId,
        reason: input.reason,
        until: input.until === null ? null : new Date(input.until),
        createdBy,
      });
      return { block: (await repo.find(id))!, created };
    },
    async edit(row: BlockedSourceRow, input: BlockUpdate) {
      const set = {
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
        ...(input.until !== undefined ? { until: input.until === null ? null : new Date(input.until) } : {}),
      };
      await repo.update(row.id, set);
      return orNotFound(await repo.find(row.id));
    },
    /** The amnesty: the block is gone, the source serves the campaign again. */
    amnesty: (row: BlockedSourceRow) => repo.remove(row.id),
  };
}
export type SourcesService = ReturnType<typeof createSourcesService>;
