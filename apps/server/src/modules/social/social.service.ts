import type { socialGroupInput } from '@adp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { type JobOutcome, jobOutcome } from '../../lib/job-outcome.ts';
import { type FacebookClient, FacebookPostError } from './facebook.ts';
import type { GroupRow, SocialRepository } from './social.repository.ts';

const PER_RUN = 5;
type GroupInput = Omit<z.infer<typeof socialGroupInput>, 'site_id'>;

/**
 * Autopublishing: each group with autopublish posts its site's materials younger than `valid_days`,
 * skipping blacklisted categories and what was already posted, in the group's date order.
 */
export function createSocialPublisher(
  repo: SocialRepository,
  facebook: FacebookClient,
  log: FastifyBaseLogger,
) {
  /**
   * Posts the group's next fresh articles (at most PER_RUN). An article Facebook refuses stays claimed
   * and unposted (not tried again, not counted), and the next one goes; a refusal of the page, the token
   * or the rate stops the run and the article is tried again next time.
   */
  async function publishGroup(
    group: Omit<GroupRow, 'postsCount'>,
  ): Promise<{ posted: number; refused: number }> {
    // blacklisted categories are left out by the query, so they never crowd out the articles that may go
    const blacklist = group.categoryBlacklist
      ? group.categoryBlacklist
          .split(',')
          .map((c) => c.trim().toLowerCase())
          .filter(Boolean)
      : [];
    const since = new Date(Date.now() - group.validDays * 86_400_000);
    let posted = 0;
    let refused = 0;
    for (const m of await repo.candidates(group, since, PER_RUN * 4, blacklist)) {
      if (posted >= PER_RUN) break;
      const message = group.useDescription && m.description ? `${m.title}\n\n${m.description}` : m.title;
      // claim first, so two instances never post the same article
      const claim = await repo.claimPost(group.id, m.id);
      if (claim === undefined) continue;
      try {
        await repo.postDone(
          claim,
          await facebook.post(group.facebookPageId, group.accessToken, message, m.url),
        );
        posted += 1;
      } catch (err) {
        log.warn({ err, groupId: group.id, materialId: m.id }, 'facebook post failed');
        if (err instanceof FacebookPostError && err.articleOnly) {
          refused += 1;
          continue;
        }
        await repo.releasePost(claim);
        break;
      }
    }
    return { posted, refused };
  }

  return {
    publishGroup,
    async publishAll(): Promise<JobOutcome> {
      let total = 0;
      for (const g of await repo.autopublishing()) total += (await publishGroup(g)).posted;
      return jobOutcome('social', `posted ${total}`, { posted: total });
    },
  };
}
export type SocialPublisher = ReturnType<typeof createSocialPublisher>;

/** Facebook groups of a site: publishing needs a successful rights check of the page and token. */
export function createSocialGroups(deps: {
  repo: SocialRepository;
  facebook: FacebookClient;
  publisher: SocialPublisher;
}) {
  const { repo, facebook, publisher } = deps;
  return {
    async create(site: { id: number; userId: number }, input: GroupInput) {
      // rights are unknown until checked, so a new group never starts publishing
      if (input.autopublish) throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
      const row = await repo.insert({
        siteId: site.id,
        userId: site.userId,
        title: input.title,
        facebookPageId: input.facebook_page_id,
        accessToken: input.access_token,
        validDays: input.valid_days,
        useDescription: input.use_description,
        categoryBlacklist: input.category_blacklist,
        dateOrder: input.date_order,
      });
      return repo.toGroup(row);
    },

    /** Another page or token voids the rights check, and with it autopublishing. */
    async update(row: GroupRow, input: Partial<GroupInput>) {
      const pageChanged =
        (input.facebook_page_id !== undefined && input.facebook_page_id !== row.facebookPageId) ||
        (input.access_token !== undefined && input.access_token !== row.accessToken);
      const rightsCheckedAt = pageChanged ? null : row.rightsCheckedAt;
      if (input.autopublish && !rightsCheckedAt)
        throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
      const updated = await repo.update(row, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.facebook_page_id !== undefined ? { facebookPageId: input.facebook_page_id } : {}),
        ...(input.access_token !== undefined ? { accessToken: input.access_token } : {}),
        ...(input.valid_days !== undefined ? { validDays: input.valid_days } : {}),
        ...(input.use_description !== undefined ? { useDescription: input.use_description } : {}),
        ...(input.category_blacklist !== undefined ? { categoryBlacklist: input.category_blacklist } : {}),
        ...(input.date_order !== undefined ? { dateOrder: input.date_order } : {}),
        rightsCheckedAt,
        autopublish: input.autopublish ?? (pageChanged ? false : row.autopublish),
      });
      return repo.toGroup(updated);
    },

    remove: (row: GroupRow) => repo.remove(row.id),

    async checkRights(row: GroupRow) {
      if (!(await facebook.canPublish(row.facebookPageId, row.accessToken))) {
        await repo.update(row, { rightsCheckedAt: null, autopublish: false });
        throw new AppError(422, 'facebook_no_rights', {}, 'facebook_page_id');
      }
      return repo.toGroup(await repo.update(row, { rightsCheckedAt: new Date() }));
    },

    async publish(row: GroupRow) {
      if (!row.autopublish) throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
      return publisher.publishGroup(row);
    },
  };
}
export type SocialGroups = ReturnType<typeof createSocialGroups>;
