import type { SiteInput, SiteParser } from '@adp/contract';
import { fromMicros, siteParser } from '@adp/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, FieldsError, orNotFound } from '../../lib/errors.ts';
import { jobOutcome } from '../../lib/job-outcome.ts';
import { afterChange, initialModeration, type ModerationColumns } from '../../lib/moderation.ts';
import { OutboundError, safeFetch } from '../../lib/safe-fetch.ts';
import { userRegexSupported } from '../../lib/user-regex.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { WidgetsRepository } from '../widgets/widgets.repository.ts';
import { FeedFormatError, type Fetcher, parseSite, unusableParserFields } from './parser.ts';
import { type SitesRepository, siteColumns } from './sites.repository.ts';

type SiteRow = NonNullable<Awaited<ReturnType<SitesRepository['row']>>>;

const parserMasks = ['category_mask', 'title_mask', 'image_mask', 'date_mask'] as const;

/** Masks run on RE2 (lib/user-regex.ts): a pattern it cannot run is refused when saved, not skipped later. */
function assertMasksSupported(input: { url_mask?: string; parser?: Partial<SiteParser> }) {
  const fields = [
    { field: 'url_mask', pattern: input.url_mask },
    ...parserMasks.map((k) => ({ field: `parser.${k}`, pattern: input.parser?.[k] })),
  ];
  const bad = fields.filter((f) => f.pattern && !userRegexSupported(f.pattern));
  const errors = [
    ...bad.map((f) => ({ field: f.field, code: 'regex_unsupported' })),
    ...(input.parser ? unusableParserFields(input.parser) : []),
  ];
  if (errors.length) throw new FieldsError(errors);
}

/** Changing these sends a site back to moderation: they change what an admin approved. */
const material: (keyof Omit<SiteInput, 'user_id'>)[] = [
  'domain',
  'category',
  'url_mask',
  'default_advertorial_url',
];

export function createSitesService(deps: {
  repo: SitesRepository;
  widgets: Pick<WidgetsRepository, 'row'>;
  users: Pick<UsersRepository, 'findById'>;
  log: FastifyBaseLogger;
  allowLoopback: boolean;
  fetcher?: Fetcher;
}) {
  const { repo } = deps;
  const fetcher: Fetcher =
    deps.fetcher ??
    ((url) =>
      safeFetch(url, { allowLoopback: deps.allowLoopback, timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 }));

  async function assertDomainFree(domain: string, exceptId?: number) {
    const existing = await repo.findByDomain(domain);
    if (existing && existing.id !== exceptId)
      throw new FieldsError([{ field: 'domain', code: 'domain_taken' }]);
  }

  /**
   * The billing widget must be one of this site's own widgets (a new site has none yet), and the
   * affiliate an existing user. Values the site already holds are accepted when sent back unchanged.
   */
  /** A site paid per thousand impressions needs a rate: at 0 it would earn nothing at all. */
  function assertCpmRate(input: Partial<Pick<SiteInput, 'payment_method' | 'cpm_rate'>>, row?: SiteRow) {
    if (input.payment_method === undefined && input.cpm_rate === undefined) return;
    const method = input.payment_method ?? row?.paymentMethod ?? 'revshare';
    const rate = input.cpm_rate ?? (row ? fromMicros(row.cpmRate) : 0);
    if (method === 'cpm' && rate <= 0)
      throw new FieldsError([{ field: 'cpm_rate', code: 'cpm_rate_required' }]);
  }

  async function assertReferences(
    input: { billing_widget?: string | null | undefined; affiliate_user_id?: string | null | undefined },
    row?: SiteRow,
  ) {
    const errors: { field: string; code: string }[] = [];
    const widgetId = input.billing_widget;
    if (widgetId && String(row?.billingWidget) !== widgetId) {
      const widget = row ? await deps.widgets.row(Number(widgetId)) : undefined;
      if (!row || widget?.siteId !== row.id)
        errors.push({ field: 'billing_widget', code: 'billing_widget_not_of_site' });
    }
    const affiliateId = input.affiliate_user_id;
    if (affiliateId && String(row?.affiliateUserId) !== affiliateId) {
      if (!(await deps.users.findById(Number(affiliateId))))
        errors.push({ field: 'affiliate_user_id', code: 'user_unknown' });
    }
    if (errors.length) throw new FieldsError(errors);
  }

  function target(row: SiteRow, parser?: SiteParser) {
    return {
      domain: row.domain,
      language: row.language,
      urlMask: row.urlMask,
      blacklistWords: row.blacklistWords,
      parser: parser ?? siteParser.parse(row.parser),
      timeZone: row.timezone,
    };
  }

  /** A parse; `failed` names why the feed or home page itself could not be read (then nothing was). */
  async function attempt(row: SiteRow, parser?: SiteParser) {
    if (parser) assertMasksSupported({ parser });
    try {
      return { result: await parseSite(target(row, parser), fetcher), failed: null };
    } catch (err) {
      const reason =
        err instanceof OutboundError
          ? err.reason
          : err instanceof FeedFormatError
            ? 'feed_format'
            : 'parse_error';
      // the address that was tried: the feed (given now or saved), else the site's home page
      const rss = (parser ?? siteParser.parse(row.parser)).rss_url;
      const url = rss || row.domain;
      return {
        result: { source: rss ? ('rss' as const) : ('html' as const), items: [], skipped: [{ url, reason }] },
        failed: { url, reason, err },
      };
    }
  }

  async function preview(row: SiteRow, parser?: SiteParser) {
    return (await attempt(row, parser)).result;
  }

  return {
    async create(ownerId: number, input: Omit<SiteInput, 'user_id'>, approved: boolean) {
      assertMasksSupported(input);
      assertCpmRate(input);
      await assertDomainFree(input.domain);
      await assertReferences(input);
      const row = await repo.insert({
        userId: ownerId,
        ...siteColumns(input),
        title: input.title,
        domain: input.domain,
        moderation: initialModeration(approved),
        // the payment method holds from now (CPM pays the whole hours after it)
        paymentMethodChangedAt: new Date(),
      });
      return orNotFound(await repo.find(row.id));
    },

    async update(row: SiteRow, input: Partial<Omit<SiteInput, 'user_id'>>, byAdmin: boolean) {
      assertMasksSupported(input);
      assertCpmRate(input, row);
      if (input.domain && input.domain !== row.domain) await assertDomainFree(input.domain, row.id);
      await assertReferences(input, row);
      const changed = material.some((k) => {
        const v = input[k];
        if (v === undefined) return false;
        const col = siteColumns({ [k]: v } as Partial<SiteInput>);
        return Object.entries(col).some(([ck, cv]) => (row as Record<string, unknown>)[ck] !== cv);
      });
      await repo.update(row.id, {
        ...siteColumns(input),
        ...afterChange(changed, byAdmin),
        ...(input.payment_method !== undefined && input.payment_method !== row.paymentMethod
          ? { paymentMethodChangedAt: new Date() }
          : {}),
      });
      return orNotFound(await repo.find(row.id));
    },

    async moderate(id: number, columns: ModerationColumns) {
      await repo.decide(id, columns);
      const row = await repo.find(id);
      // deleted between its load and the decision
      if (!row) throw new AppError(404, 'not_found');
      return row;
    },

    preview,

    /**
     * Parses and stores; answers what was stored and skipped. A feed or home page that could not be read
     * at all (unreachable, not the chosen RSS version, not XML) stores nothing, leaves the site's last parse
     * time as it was (the site does not look freshly parsed) and is logged with its reason.
     */
    async run(row: SiteRow) {
      const { result, failed } = await attempt(row);
      if (failed) {
        deps.log.warn(
          { siteId: row.id, url: failed.url, reason: failed.reason, err: failed.err },
          'site parse failed',
        );
        return { stored: 0, skipped: result.skipped };
      }
      const stored = await repo.storeMaterials(row.id, result.items, row.materialsLifetime);
      return { stored, skipped: result.skipped };
    },

    /** The scheduled refresh: every active, approved site, one after another; expired materials go. */
    async refreshAll() {
      const purged = await repo.purgeExpired();
      let stored = 0;
      for (const id of await repo.activeApprovedIds()) {
        const row = await repo.row(id);
        if (!row) continue;
        try {
          stored += (await this.run(row)).stored;
        } catch (err) {
          deps.log.warn({ err, siteId: id }, 'materials refresh failed');
        }
      }
      return jobOutcome('materials', `stored ${stored}, purged ${purged}`, { stored, purged });
    },
  };
}
export type SitesService = ReturnType<typeof createSitesService>;
