import { randomBytes } from 'node:crypto';
import type { promotionInput, promotionPageInput } from '@adp/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import type { ImageType } from '../../lib/image-type.ts';
import type { Storage } from '../../lib/storage.ts';
import type { PageRow, PromotionRow, PromotionsRepository } from './promotions.repository.ts';

type PromotionInput = Omit<z.infer<typeof promotionInput>, 'site_id'>;
type PageInput = Omit<z.infer<typeof promotionPageInput>, 'promotion_id'>;

const dates = (v: { starts_at?: string | null | undefined; ends_at?: string | null | undefined }) => ({
  ...(v.starts_at !== undefined ? { startsAt: v.starts_at ? new Date(v.starts_at) : null } : {}),
  ...(v.ends_at !== undefined ? { endsAt: v.ends_at ? new Date(v.ends_at) : null } : {}),
});
function assertOrder(starts: Date | null, ends: Date | null) {
  if (starts && ends && ends <= starts) throw new AppError(422, 'ends_before_start', {}, 'ends_at');
}

/** Promotions of a site and their pages (SPEC.md section 2 "Promotions"). */
export function createPromotionsService(deps: { repo: PromotionsRepository; storage: Storage }) {
  const { repo, storage } = deps;
  /** A file the storage fails to delete is left behind, never a failed delete of what was asked. */
  async function deleteImages(keys: string[]) {
    for (const key of keys) await storage.delete(key).catch(() => {});
  }
  return {
    async create(site: { id: number; userId: number }, input: PromotionInput) {
      const d = dates(input);
      assertOrder(d.startsAt ?? null, d.endsAt ?? null);
      const row = await repo.insert({
        siteId: site.id,
        userId: site.userId,
        title: input.title,
        description: input.description,
        url: input.url,
        status: input.status,
        ...d,
      });
      return repo.toPromotion(row);
    },

    async update(row: PromotionRow, input: Partial<PromotionInput>) {
      const { starts_at, ends_at, ...rest } = input;
      const d = dates({ starts_at, ends_at });
      assertOrder(
        d.startsAt !== undefined ? d.startsAt : row.startsAt,
        d.endsAt !== undefined ? d.endsAt : row.endsAt,
      );
      return repo.toPromotion(await repo.update(row, { ...rest, ...d }));
    },

    /** Deletes the promotion and its pages, then (after commit) their images' files. */
    async remove(row: PromotionRow) {
      await deleteImages(await repo.remove(row.id));
    },

    /** After a site is deleted (its promotions with it): the files of its promotion pages' images. */
    deleteImages,

    async createPage(parent: PromotionRow, input: PageInput) {
      const row = await repo.insertPage(
        {
          promotionId: parent.id,
          userId: parent.userId,
          title: input.title,
          text: input.text,
          url: input.url,
          status: input.status,
        },
        parent.siteId,
      );
      return repo.toPage(row);
    },

    updatePage: async (row: PageRow, input: Partial<PageInput>) =>
      repo.toPage(await repo.updatePage(row, input)),

    async removePage(row: PageRow) {
      await repo.removePage(row.id);
      if (row.image) await storage.delete(row.image);
    },

    /** Stores the new image, then drops the one it replaces. */
    async setImage(row: PageRow, bytes: Buffer, type: ImageType) {
      const key = `promotions/${row.id}-${randomBytes(8).toString('hex')}.${type.ext}`;
      await storage.put(key, bytes, type.contentType);
      const updated = await repo.updatePage(row, { image: key });
      if (row.image) await storage.delete(row.image);
      return repo.toPage(updated);
    },
  };
}
export type PromotionsService = ReturnType<typeof createPromotionsService>;
