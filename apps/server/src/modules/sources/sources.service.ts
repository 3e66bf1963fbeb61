import type { blockedSourceInput, blockedSourceUpdate } from '@adp/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { BlockedSourceRow, SourcesRepository } from './sources.repository.ts';

type BlockInput = z.output<typeof blockedSourceInput>;
type BlockUpdate = z.output<typeof blockedSourceUpdate>;

/**
 * Blocking traffic sources: the source is any existing site or widget (someone else's inventory), an
 * unknown one is 422 on its field. Every change is announced to delivery by the table's trigger.
 */
export function createSourcesService(repo: SourcesRepository) {
  return {
    async block(campaignId: number | null, input: BlockInput, createdBy: number) {
      const siteId = input.site_id === undefined ? null : Number(input.site_id);
      const widgetId = input.widget_id === undefined ? null : Number(input.widget_id);
      if (siteId !== null && !(await repo.siteExists(siteId)))
        throw new AppError(422, 'not_found', {}, 'site_id');
      if (widgetId !== null && !(await repo.widgetExists(widgetId)))
        throw new AppError(422, 'not_found', {}, 'widget_id');
      const id = await repo.insert({
        campaignId,
        siteId,
        widgetId,
        reason: input.reason,
        until: input.until === null ? null : new Date(input.until),
        createdBy,
      });
      return (await repo.find(id))!;
    },
    async edit(row: BlockedSourceRow, input: BlockUpdate) {
      const set = {
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
        ...(input.until !== undefined ? { until: input.until === null ? null : new Date(input.until) } : {}),
      };
      await repo.update(row.id, set);
      return (await repo.find(row.id))!;
    },
    /** The amnesty: the block is gone, the source serves the campaign again. */
    amnesty: (row: BlockedSourceRow) => repo.remove(row.id),
  };
}
export type SourcesService = ReturnType<typeof createSourcesService>;
