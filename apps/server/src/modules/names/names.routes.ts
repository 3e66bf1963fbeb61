import {
  campaignNamesAnswer,
  dspDomainsLookup,
  type NamedEntity,
  nameLookup,
  namesAnswer,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { FieldsError } from '../../lib/errors.ts';

/**
 * Keeps the readable rows in the order asked, or fails with one 422 entry per id that is unknown or
 * not readable: a foreign id and a missing one look the same, as everywhere (DESIGN.md security rules).
 */
function readableOrFail<Row extends { id: number }>(
  ids: string[],
  rows: Row[],
  readable: (row: Row) => boolean,
  field = 'ids',
): Row[] {
  const byId = new Map(rows.filter(readable).map((r) => [String(r.id), r]));
  const unique = [...new Set(ids)];
  const bad = unique.filter((id) => !byId.has(id));
  if (bad.length) throw new FieldsError(bad.map((id) => ({ field, code: 'unknown_id', params: { id } })));
  return unique.map((id) => byId.get(id)!);
}

const owned =
  (ability: AppAbility, type: 'Site' | 'Campaign') =>
  (row: { userId: number }): boolean =>
    ability.can('read', subject(type, { user_id: String(row.userId) }));

/**
 * Name lookups (SPEC.md sections 3, 4 and 7): the dashboard's name cache asks for the ids it misses
 * and gets only what the caller may read.
 */
export const namesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const repo = ctx.names;
  app.addHook('onRequest', app.authenticate);
  const toNumbers = (ids: string[]) => [...new Set(ids)].map(Number);

  app.post(
    '/sites/names',
    { schema: { tags: ['names'], body: nameLookup, response: { 200: namesAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Site');
      const rows = await repo.sites(toNumbers(req.body.ids));
      const found = readableOrFail(req.body.ids, rows, owned(req.ability, 'Site'));
      return { items: found.map((r): NamedEntity => ({ _id: String(r.id), name: r.name })) };
    },
  );

  app.post(
    '/campaigns/names',
    { schema: { tags: ['names'], body: nameLookup, response: { 200: campaignNamesAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Campaign');
      const rows = await repo.campaigns(toNumbers(req.body.ids));
      const found = readableOrFail(req.body.ids, rows, owned(req.ability, 'Campaign'));
      return {
        items: found.map((r) => ({
          _id: String(r.id),
          name: r.name,
          user_id: String(r.userId),
          currency: r.currency,
        })),
      };
    },
  );

  // Partners are SPEC.md's "agency groups": until the partners issue brings their own table, the
  // names come from agencies, with the agencies' read rule (admins, the owner, its members).
  app.post(
    '/partners/names',
    { schema: { tags: ['names'], body: nameLookup, response: { 200: namesAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Agency');
      const rows = await repo.agencies(toNumbers(req.body.ids));
      const found = readableOrFail(req.body.ids, rows, (r) =>
        req.ability.can(
          'read',
          subject('Agency', { _id: String(r.id), user_id: String(r.userId), member_ids: r.memberIds }),
        ),
      );
      return { items: found.map((r) => ({ _id: String(r.id), name: r.name })) };
    },
  );

  // DSP partners are admin-only (SPEC.md section 6): the answer is each site's domain, for an existing
  // partner (an unknown `dsp_id` is a 422 on it, as every id a request names)
  app.post(
    '/dsppartners/domains',
    { schema: { tags: ['names'], body: dspDomainsLookup, response: { 200: namesAnswer } } },
    async (req) => {
      assertCan(req.ability, 'read', 'DspPartner');
      if (!(await ctx.dspPartners.repo.row(Number(req.body.dsp_id))))
        throw new FieldsError([{ field: 'dsp_id', code: 'unknown_id', params: { id: req.body.dsp_id } }]);
      const rows = await repo.sites(toNumbers(req.body.site_ids));
      const found = readableOrFail(req.body.site_ids, rows, owned(req.ability, 'Site'), 'site_ids');
      return { items: found.map((r) => ({ _id: String(r.id), name: r.domain })) };
    },
  );
};
