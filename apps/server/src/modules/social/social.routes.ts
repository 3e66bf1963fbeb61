import { id, paged, pageQuery, socialGroup, socialGroupInput, socialGroupUpdate } from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sites, socialGroups } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';

const params = z.object({ id });
type Row = typeof socialGroups.$inferSelect;

export const socialRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx.database;
  const { facebook, socialPublisher } = ctx;
  app.addHook('onRequest', app.authenticate);

  // raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
  const postsCount = sql<number>`(select count(*)::int from social_posts sp where sp.group_id = social_groups.id and sp.external_id is not null)`;
  const toGroup = (row: Row, posts: number) => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    title: row.title,
    facebook_page_id: row.facebookPageId,
    has_token: row.accessToken !== '',
    autopublish: row.autopublish,
    valid_days: row.validDays,
    use_description: row.useDescription,
    category_blacklist: row.categoryBlacklist,
    date_order: row.dateOrder as 'asc' | 'desc',
    rights_checked_at: row.rightsCheckedAt?.toISOString() ?? null,
    posts_count: posts,
    created_at: row.createdAt.toISOString(),
  });

  async function visible(groupId: string, ability: AppAbility) {
    const [row] = await db
      .select({ g: socialGroups, n: postsCount })
      .from(socialGroups)
      .where(eq(socialGroups.id, Number(groupId)));
    if (!row || !ability.can('read', subject('SocialGroup', { user_id: String(row.g.userId) })))
      throw new AppError(404, 'not_found');
    return row;
  }

  app.get(
    '/socialgroups',
    {
      schema: {
        tags: ['social'],
        querystring: pageQuery.extend({ site_id: id.optional() }),
        response: { 200: paged(socialGroup) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'SocialGroup');
      const scope = readScope(req.ability, 'SocialGroup', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(socialGroups.userId, scope.map(Number)));
      if (req.query.site_id) conds.push(eq(socialGroups.siteId, Number(req.query.site_id)));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(socialGroups).where(where);
      const rows = await db
        .select({ g: socialGroups, n: postsCount })
        .from(socialGroups)
        .where(where)
        .orderBy(desc(socialGroups.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map((r) => toGroup(r.g, r.n)),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get(
    '/socialgroups/:id',
    { schema: { tags: ['social'], params, response: { 200: socialGroup } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      return toGroup(row.g, row.n);
    },
  );

  app.post(
    '/socialgroups',
    {
      schema: {
        tags: ['social'],
        body: z.strictObject({ socialgroup: socialGroupInput }),
        response: { 201: socialGroup },
      },
    },
    async (req, reply) => {
      const input = req.body.socialgroup;
      const [site] = await db
        .select()
        .from(sites)
        .where(eq(sites.id, Number(input.site_id)));
      if (!site || !req.ability.can('read', subject('Site', { user_id: String(site.userId) }))) {
        throw new AppError(422, 'not_found', {}, 'site_id');
      }
      assertCan(req.ability, 'create', subject('SocialGroup', { user_id: String(site.userId) }));
      // rights are unknown until checked, so a new group never starts publishing
      if (input.autopublish) throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
      const [row] = await db
        .insert(socialGroups)
        .values({
          siteId: site.id,
          userId: site.userId,
          title: input.title,
          facebookPageId: input.facebook_page_id,
          accessToken: input.access_token,
          validDays: input.valid_days,
          useDescription: input.use_description,
          categoryBlacklist: input.category_blacklist,
          dateOrder: input.date_order,
        })
        .returning();
      reply.code(201);
      return toGroup(row!, 0);
    },
  );

  app.put(
    '/socialgroups/:id',
    {
      schema: {
        tags: ['social'],
        params,
        body: z.strictObject({ socialgroup: socialGroupUpdate }),
        response: { 200: socialGroup },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('SocialGroup', { user_id: String(row.g.userId) }));
      const input = req.body.socialgroup;
      const pageChanged =
        (input.facebook_page_id !== undefined && input.facebook_page_id !== row.g.facebookPageId) ||
        (input.access_token !== undefined && input.access_token !== row.g.accessToken);
      const rightsCheckedAt = pageChanged ? null : row.g.rightsCheckedAt;
      if (input.autopublish && !rightsCheckedAt)
        throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
      const [updated] = await db
        .update(socialGroups)
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.facebook_page_id !== undefined ? { facebookPageId: input.facebook_page_id } : {}),
          ...(input.access_token !== undefined ? { accessToken: input.access_token } : {}),
          ...(input.valid_days !== undefined ? { validDays: input.valid_days } : {}),
          ...(input.use_description !== undefined ? { useDescription: input.use_description } : {}),
          ...(input.category_blacklist !== undefined ? { categoryBlacklist: input.category_blacklist } : {}),
          ...(input.date_order !== undefined ? { dateOrder: input.date_order } : {}),
          rightsCheckedAt,
          autopublish: input.autopublish ?? (pageChanged ? false : row.g.autopublish),
        })
        .where(eq(socialGroups.id, row.g.id))
        .returning();
      return toGroup(updated!, row.n);
    },
  );

  app.delete('/socialgroups/:id', { schema: { tags: ['social'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('SocialGroup', { user_id: String(row.g.userId) }));
    await db.delete(socialGroups).where(eq(socialGroups.id, row.g.id));
    return reply.code(204).send();
  });

  // the publishing-rights check that must succeed before autopublish can be turned on
  app.post(
    '/socialgroups/:id/check-rights',
    { schema: { tags: ['social'], params, response: { 200: socialGroup } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('SocialGroup', { user_id: String(row.g.userId) }));
      const ok = await facebook.canPublish(row.g.facebookPageId, row.g.accessToken);
      if (!ok) {
        await db
          .update(socialGroups)
          .set({ rightsCheckedAt: null, autopublish: false })
          .where(eq(socialGroups.id, row.g.id));
        throw new AppError(422, 'facebook_no_rights', {}, 'facebook_page_id');
      }
      const [updated] = await db
        .update(socialGroups)
        .set({ rightsCheckedAt: new Date() })
        .where(eq(socialGroups.id, row.g.id))
        .returning();
      return toGroup(updated!, row.n);
    },
  );

  app.post('/socialgroups/:id/publish', { schema: { tags: ['social'], params } }, async (req) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'update', subject('SocialGroup', { user_id: String(row.g.userId) }));
    if (!row.g.autopublish) throw new AppError(422, 'facebook_no_rights_check', {}, 'autopublish');
    return { posted: await socialPublisher.publishGroup(row.g) };
  });
};
