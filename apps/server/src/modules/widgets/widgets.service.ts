import { type Widget, type WidgetInput, widgetInput, widgetSettings, type widgetUpdate } from '@adp/contract';
import type { AppAbility } from '@adp/permissions';
import type { z } from 'zod';
import { AppError, orNotFound } from '../../lib/errors.ts';
import { mergedBlock } from '../../lib/merge-block.ts';
import { afterChange, changesAny, initialModeration, type ModerationColumns } from '../../lib/moderation.ts';
import { createDefaults, type RevenueTerms } from '../revenue-terms/revenue-terms.service.ts';
import { toWidget, type WidgetsRepository } from './widgets.repository.ts';

type WidgetRow = NonNullable<Awaited<ReturnType<WidgetsRepository['row']>>>;

/** What the money or the placement depends on: a change by the owner needs a moderator's look again. */
const material = ['processor', 'earn_processor', 'earn_value'] as const;

/**
 * A percent of the charge above 100 would credit the publisher more than the advertiser paid (the split's
 * sum rule): refused on the terms as they will be stored, so an update naming only one of them counts too.
 */
function assertEarnTerms(terms: Pick<Widget, 'earn_processor' | 'earn_value'>) {
  if (terms.earn_processor === 'percent' && terms.earn_value > 100)
    throw new AppError(422, 'earn_percent_too_big', {}, 'earn_value');
}

/**
 * Widget rules: revenue terms (earn processor and value) are the admins' and logged; a material change by
 * a non-moderator sends the widget back to moderation; delivery forgets its cached answer on every change.
 */
export function createWidgetsService(deps: { repo: WidgetsRepository; revenueTerms: RevenueTerms }) {
  const { repo, revenueTerms } = deps;
  const defaults = createDefaults(widgetInput);
  return {
    async create(
      by: { userId: number; ability: AppAbility; moderator: boolean },
      site: { id: number; userId: number },
      input: WidgetInput,
    ): Promise<Widget> {
      revenueTerms.assertMayChange(by.ability, 'widget', defaults, input);
      assertEarnTerms(input);
      const created = await repo.insert(site.id, site.userId, input, initialModeration(by.moderator));
      await revenueTerms.record(by.userId, 'widget', created._id, defaults, created);
      return created;
    },

    async update(
      by: { userId: number; ability: AppAbility; moderator: boolean },
      row: WidgetRow,
      update: z.infer<typeof widgetUpdate>,
    ): Promise<Widget> {
      const before = toWidget(row);
      // the settings sent are merged over the stored ones: the fields not sent keep their values
      const { settings: sent, ...rest } = update;
      const settings = mergedBlock(widgetSettings, row.settings, sent, ['widget', 'settings']);
      const input: Partial<Omit<WidgetInput, 'site_id'>> = settings ? { ...rest, settings } : rest;
      revenueTerms.assertMayChange(by.ability, 'widget', before, input);
      assertEarnTerms({
        earn_processor: input.earn_processor ?? before.earn_processor,
        earn_value: input.earn_value ?? before.earn_value,
      });
      // the dashboard sends every field back: only values that differ from the stored ones count as a change
      const changed = changesAny(before, input, material);
      const updated = orNotFound(await repo.update(row.id, input, afterChange(changed, by.moderator)));
      await revenueTerms.record(by.userId, 'widget', before._id, before, updated);
      return updated;
    },

    async decide(row: WidgetRow, columns: ModerationColumns): Promise<Widget> {
      const decided = await repo.decide(row.id, columns);
      // deleted between its load and the decision
      if (!decided) throw new AppError(404, 'not_found');
      return decided;
    },

    async remove(row: WidgetRow) {
      await repo.remove(row.id);
    },
  };
}
export type WidgetsService = ReturnType<typeof createWidgetsService>;
