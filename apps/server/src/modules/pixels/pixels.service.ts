import type { PixelInput } from '@adp/contract';
import type { PixelRecord, PixelsRepository } from './pixels.repository.ts';

/** Remarketing pixels: an owner's audiences, which its creatives may target. */
export function createPixelsService(repo: PixelsRepository) {
  return {
    async create(ownerId: number, input: Omit<PixelInput, 'user_id'>) {
      return repo.toPixel(
        await repo.insert({ userId: ownerId, title: input.title, allPages: input.all_pages }),
      );
    },
    async update(row: PixelRecord, input: Partial<Omit<PixelInput, 'user_id'>>) {
      const set = {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.all_pages !== undefined ? { allPages: input.all_pages } : {}),
      };
      if (Object.keys(set).length > 0) await repo.update(row.id, set);
      return repo.toPixel({ ...row, ...set });
    },
    remove: (row: PixelRecord) => repo.remove(row.id),
  };
}
export type PixelsService = ReturnType<typeof createPixelsService>;
