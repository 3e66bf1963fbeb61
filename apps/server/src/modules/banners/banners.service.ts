import { randomBytes } from 'node:crypto';
import { type BannerInput, bannerImageFormats, type Targeting, targeting } from '@adp/contract';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { renderBannerImages, sniffVideoType } from '../../lib/images.ts';
import { parseIpCsv } from '../../lib/ip-csv.ts';
import { afterChange, changesAny, initialModeration, type ModerationColumns } from '../../lib/moderation.ts';
import type { Storage } from '../../lib/storage.ts';
import { unknownIdErrors } from '../../lib/unknown-ids.ts';
import type { CampaignRow } from '../campaigns/campaigns.repository.ts';
import type { PixelsRepository } from '../pixels/pixels.repository.ts';
import type { SitesRepository } from '../sites/sites.repository.ts';
import type { BannerRow, BannersRepository } from './banners.repository.ts';

const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const MAX_IP_RANGES = 10_000;
/** What the visitor sees or where the click goes: changing it needs a moderator's look again. */
const seen = ['title', 'text', 'url'] as const;

type Input = Omit<BannerInput, 'campaign_id'>;

/** Creatives of a campaign (SPEC.md sections 2, 3 and 7). */
export function createBannersService(deps: {
  repo: BannersRepository;
  pixels: PixelsRepository;
  sites: Pick<SitesRepository, 'liveIds'>;
  /** The partners the `dsp_partners` (RTB partners) and `prebid_partners` rules may name. */
  rtbPartners: { existingIds(ids: number[]): Promise<Set<number>> };
  prebidPartners: { existingIds(ids: number[]): Promise<Set<number>> };
  storage: Storage;
}) {
  const { repo, pixels, storage } = deps;
  const out = repo.toBanner;

  /**
   * Every id the targeting names is checked; ids already stored on the creative were checked when they
   * came in. Remarketing targets audiences, which are their owner's customers: only the owner's pixels.
   * Sites (either direction) must be live inventory, as for a campaign's site_id.
   */
  async function assertTargetingIds(ownerId: number, next: Targeting, before?: Targeting) {
    const fresh = (values: string[], held: string[] = []) => {
      const known = new Set(held);
      return [...new Set(values)].filter((v) => !known.has(v));
    };
    const errors: { field: string; code: string; params: { ids: string } }[] = [];
    const newPixels = fresh(next.pixels.values, before?.pixels.values);
    if (newPixels.length) {
      const owned = await pixels.ownedBy(ownerId, newPixels.map(Number));
      const foreign = newPixels.filter((v) => !owned.has(Number(v)));
      if (foreign.length)
        errors.push({
          field: 'targeting.pixels',
          code: 'pixel_not_owned',
          params: { ids: foreign.join(', ') },
        });
    }
    const newSites = fresh(next.sites.values, before?.sites.values);
    if (newSites.length) {
      const live = await deps.sites.liveIds(newSites.map(Number));
      const refused = newSites.filter((v) => !live.has(Number(v)));
      if (refused.length)
        errors.push({
          field: 'targeting.sites',
          code: 'site_unavailable',
          params: { ids: refused.join(', ') },
        });
    }
    // "only these" with an empty list shows the creative nowhere: refused where the request sets it
    for (const [dimension, rule] of Object.entries(next)) {
      if (!rule || typeof rule !== 'object' || !('values' in rule) || rule.state !== 'active') continue;
      const was = before?.[dimension as keyof Targeting] as
        | { state?: string; values?: unknown[] }
        | undefined;
      if (rule.values.length === 0 && (was?.state !== 'active' || (was.values?.length ?? 0) > 0))
        errors.push({ field: `targeting.${dimension}`, code: 'targeting_empty', params: { ids: '' } });
    }
    for (const [dimension, partners] of [
      ['dsp_partners', deps.rtbPartners],
      ['prebid_partners', deps.prebidPartners],
    ] as const) {
      const named = fresh(next[dimension].values, before?.[dimension].values);
      if (named.length)
        errors.push(
          ...(await unknownIdErrors([{ field: `targeting.${dimension}`, ids: named }], partners.existingIds)),
        );
    }
    if (errors.length) throw new FieldsError(errors);
  }

  return {
    async create(campaign: CampaignRow, input: Input, byModerator: boolean) {
      await assertTargetingIds(campaign.userId, input.targeting);
      return out(
        await repo.insert({
          campaignId: campaign.id,
          userId: campaign.userId,
          title: input.title,
          text: input.text,
          url: input.url,
          status: input.status,
          targeting: input.targeting as Record<string, unknown>,
          moderation: initialModeration(byModerator),
        }),
      );
    },

    async update(row: BannerRow, input: Partial<Input>, byModerator: boolean) {
      if (input.targeting !== undefined)
        await assertTargetingIds(row.userId, input.targeting, targeting.parse(row.targeting));
      return out(
        await repo.update(row.id, {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.text !== undefined ? { text: input.text } : {}),
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.targeting !== undefined ? { targeting: input.targeting as Record<string, unknown> } : {}),
          ...afterChange(changesAny(row, input, seen), byModerator),
        }),
      );
    },

    /** Image files may be shared with copies of this creative, so they stay in storage. */
    remove: (row: BannerRow) => repo.remove(row.id),

    async copy(row: BannerRow, byModerator: boolean) {
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
      return out(
        await repo.insert({
          ...rest,
          // by characters, as the title is checked: a cut inside an emoji would store half of it
          title: Array.from(`${row.title} (copy)`).slice(0, 60).join(''),
          moderation: byModerator ? row.moderation : 'pending',
          moderationReason: null,
        }),
      );
    },

    /** A new image (resized to every widget format) or video: what the visitor sees, so moderated again. */
    async upload(row: BannerRow, kind: 'image' | 'video', bytes: Buffer, byModerator: boolean) {
      const stamp = `${row.id}-${randomBytes(6).toString('hex')}`;
      const moderation = afterChange(true, byModerator);
      if (kind === 'video') {
        const type = sniffVideoType(bytes);
        if (!type) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
        const key = `banners/${stamp}.${type.ext}`;
        await storage.put(key, bytes, type.contentType);
        return out(await repo.update(row.id, { video: key, ...moderation }));
      }
      if (bytes.length > IMAGE_MAX_BYTES) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
      const rendered = await renderBannerImages(bytes);
      const keys: Record<string, string> = {};
      for (const format of Object.keys(bannerImageFormats) as (keyof typeof bannerImageFormats)[]) {
        const key = `banners/${stamp}-${format}.webp`;
        await storage.put(key, rendered[format], 'image/webp');
        keys[format] = key;
      }
      return out(await repo.update(row.id, { images: keys, ...moderation }));
    },

    /**
     * The creative shows no video any more (its image stays). Less to show needs no new moderation; the
     * file stays in storage, as it may be a copy's too.
     */
    async removeVideo(row: BannerRow) {
      if (!row.video) return out(row);
      return out(await repo.update(row.id, { video: null }));
    },

    /** CSV of IPs and CIDR ranges into the IP targeting (switched on); bad rows reported by line number. */
    async importIps(row: BannerRow, csv: string) {
      const { ranges, errors } = parseIpCsv(csv);
      const t = targeting.parse(row.targeting);
      const all = [...new Set([...t.ips.values, ...ranges])].slice(0, MAX_IP_RANGES);
      const next = {
        ...t,
        ips: { state: t.ips.state === 'inactive' ? ('active' as const) : t.ips.state, values: all },
      };
      await repo.update(row.id, { targeting: next as Record<string, unknown> });
      return { imported: all.length - t.ips.values.length, total: all.length, errors };
    },

    moderate: async (row: BannerRow, columns: ModerationColumns) => {
      const decided = await repo.decide(row.id, columns);
      // deleted between its load and the decision
      if (!decided) throw new AppError(404, 'not_found');
      return out(decided);
    },
  };
}
export type BannersService = ReturnType<typeof createBannersService>;
