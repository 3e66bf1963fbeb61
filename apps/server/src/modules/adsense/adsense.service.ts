import {
  type AdsenseApprove,
  type AdsenseImport,
  type AdsenseImportDetail,
  type AdsenseIncome,
  fromMicros,
  platformCurrency,
} from '@adp/contract';
import { basisPoints } from '../../delivery/delivery.repository.ts';
import { type CreditType, splitCharge } from '../../delivery/money-split.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { isRetryable, uniqueViolation } from '../../lib/unique.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import { notify } from '../notifications/notices.ts';
import { hostOf, type ParsedRow, parseReport } from './adsense.parser.ts';
import type { AdsenseRepository, ImportWithTotals, IncomeWithSite, SiteTerms } from './adsense.repository.ts';

/** Translates an error code with its field's label (the request's `t`). */
export type Translate = (code: string, field: string) => string;

/** A new widget's terms (widgets.earn_value default): 50 % of the revenue. */
const DEFAULT_PERCENT = 50_000_000n;
const HUNDRED_PERCENT = 100_000_000n;
/** Runs of an approval's transaction that a deadlock or serialization failure may take before it gives up. */
export const APPROVE_ATTEMPTS = 3;

/**
 * The publisher's share of one row's AdSense revenue by the site's earn terms (DESIGN.md "Money per
 * charged click" applied to AdSense): `percent` → earn_value % of the revenue; `fixed` → earn_value per
 * click, never more than the revenue. Integer micro-units, rounded down (the platform keeps the rest).
 */
export function shareOf(revenue: bigint, clicks: number, terms: SiteTerms | undefined): bigint {
  if (terms?.earnProcessor === 'fixed' && terms.earnValue !== null) {
    const fixed = BigInt(clicks) * terms.earnValue;
    return fixed < revenue ? fixed : revenue;
  }
  const percent = terms?.earnValue ?? DEFAULT_PERCENT;
  return (revenue * (percent > HUNDRED_PERCENT ? HUNDRED_PERCENT : percent)) / HUNDRED_PERCENT;
}

/** `12.34` (a numeric's text, up to 10 decimals) as an integer scaled by 10^10. */
function scaled(rate: string): bigint {
  const [whole = '0', frac = ''] = rate.split('.');
  return BigInt(whole) * 10n ** 10n + BigInt((frac.slice(0, 10) || '0').padEnd(10, '0'));
}

/**
 * The credits of one row's revenue: the site's share (`shareOf`) split as a click's (DESIGN.md money
 * split): the owner's agency gets its rate of the share, the site's affiliate and then the owner's referrer
 * their percent of what the platform keeps; the publisher gets the rest of the share.
 */
export function splitIncome(revenue: bigint, clicks: number, terms: SiteTerms) {
  const share = shareOf(revenue, clicks, terms);
  return splitCharge(
    revenue,
    {
      // the share is already worked out: as a fixed earning it passes through whole
      earnProcessor: 'fixed',
      earnValue: share,
      agencyUserId: terms.agencyUserId,
      agencyBp: terms.agencyUserId ? basisPoints(terms.agencyRate) : 0n,
      publisherId: terms.userId,
    },
    // the site's affiliate first, then the owner's referrer (as a click's split)
    [terms.affiliate, terms.referrer]
      .filter((r) => r !== null)
      .map((r) => ({ userId: r.userId, bp: basisPoints(r.percent) }))
      .filter((r) => r.bp > 0n),
  );
}

/**
 * Whether a source's text names the host as a whole name: its labels in order (separated by dots,
 * underscores or spaces), not inside a longer name (`notnews.example`, `news.example.evil.net`).
 */
function namedIn(host: string): RegExp {
  const labels = host.split('.').map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?:^|[^a-z0-9-])${labels.join('[._\\s]+')}(?![a-z0-9-]|\\.[a-z0-9])`);
}

const withoutCodes = (errors: { field: string; code: string }[], codes: string[]) =>
  errors.filter((e) => !codes.includes(e.code));

/**
 * AdSense incomes (SPEC.md: uploaded by CSV, rows returned, then approved). Upload parses and maps rows
 * to sites by domain, URL or ad unit name; approval credits each publisher's share through the ledger
 * in the same transaction that marks the import approved, which happens once.
 */
export function createAdsense(repo: AdsenseRepository, ledger: Ledger) {
  async function mapSites(rows: ParsedRow[]) {
    const list = (await repo.siteDomains())
      .map((s) => ({ ...s, host: hostOf(s.domain) }))
      .filter((s) => s.host)
      .sort((a, b) => b.host.length - a.host.length)
      .map((s) => ({ ...s, named: namedIn(s.host) }));
    const byHost = new Map(list.map((s) => [s.host, s]));
    return rows.map((r) => {
      if (!r.source) return null;
      const exact = byHost.get(hostOf(r.source));
      if (exact) return exact.id;
      // an ad unit or URL channel named after the site ("news.example - sidebar", "news_example_top")
      const text = r.source.toLowerCase();
      return list.find((s) => s.named.test(text))?.id ?? null;
    });
  }

  async function previewTerms(rows: IncomeWithSite[]) {
    const ids = [...new Set(rows.map((r) => r.siteId).filter((x): x is number => x !== null))];
    return repo.siteTerms(ids);
  }

  function toIncome(r: IncomeWithSite, t: Translate, terms?: Map<number, SiteTerms>): AdsenseIncome {
    let site = r.siteIncome;
    let own = r.ownIncome;
    // before approval: what approval would credit, by today's terms
    if (terms && site === null && r.siteId !== null && !r.errors.length) {
      const siteTerms = terms.get(r.siteId);
      site = shareOf(r.revenue, r.clicks, siteTerms);
      own = siteTerms ? splitIncome(r.revenue, r.clicks, siteTerms).platform : r.revenue - site;
    }
    return {
      _id: String(r.id),
      line: r.line,
      date: r.date,
      source: r.source,
      site_id: r.siteId === null ? null : String(r.siteId),
      site_title: r.siteTitle,
      user_id: r.userId === null ? null : String(r.userId),
      page_views: r.pageViews,
      impressions: r.impressions,
      clicks: r.clicks,
      adsense_revenue: fromMicros(r.revenue),
      site_income: site === null ? null : fromMicros(site),
      own_income: own === null ? null : fromMicros(own),
      errors: r.errors.map((e) => ({ ...e, detail: t(e.code, e.field) })),
    };
  }

  function toImport(row: ImportWithTotals): AdsenseImport {
    return {
      _id: String(row.id),
      file_name: row.fileName,
      format: row.format === 'legacy' ? 'legacy' : 'current',
      currency: row.currency,
      status: row.status === 'approved' ? 'approved' : 'uploaded',
      rows_count: Number(row.rowsCount),
      error_rows: Number(row.errorRows),
      adsense_revenue: fromMicros(row.revenue),
      site_income: fromMicros(row.siteIncome),
      own_income: fromMicros(row.ownIncome),
      uploaded_by: row.uploadedBy === null ? null : String(row.uploadedBy),
      approved_by: row.approvedBy === null ? null : String(row.approvedBy),
      approved_at: row.approvedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }

  async function detail(id: number, t: Translate): Promise<AdsenseImportDetail> {
    const imp = await repo.findImport(id);
    if (!imp) throw new AppError(404, 'not_found');
    const rows = await repo.rows(id);
    const terms = imp.status === 'uploaded' ? await previewTerms(rows) : undefined;
    return { ...toImport(imp), rows: rows.map((r) => toIncome(r, t, terms)) };
  }

  return {
    detail,
    async list(q: { page: number; limit: number }) {
      const { items, total } = await repo.listImports(q);
      return { items: items.map(toImport), total, page: q.page, limit: q.limit };
    },

    /** A site's credited AdSense days, newest first (its page's AdSense card). */
    async siteDays(siteId: number, q: { page: number; limit: number }) {
      const { items, total } = await repo.siteDays(siteId, q);
      return {
        items: items.map((d) => ({
          date: d.date,
          page_views: Number(d.pageViews),
          impressions: Number(d.impressions),
          clicks: Number(d.clicks),
          site_income: fromMicros(BigInt(d.siteIncome)),
          publisher_income: d.publisherIncome === null ? null : fromMicros(BigInt(d.publisherIncome)),
          import_id: String(d.importId),
        })),
        total,
        page: q.page,
        limit: q.limit,
      };
    },

    /** Parses the report, maps its rows to sites and keeps it as an import awaiting approval. */
    async upload(bytes: Buffer, fileName: string, adminId: number, t: Translate) {
      const report = parseReport(bytes);
      let toPlatform = (micros: bigint) => micros;
      if (report.currency !== platformCurrency) {
        const rate = await repo.rateOf(report.currency);
        if (!rate || scaled(rate) <= 0n)
          throw new AppError(422, 'adsense_currency', { currency: report.currency }, 'file');
        const r = scaled(rate);
        toPlatform = (micros) => (micros * 10n ** 10n + r / 2n) / r;
      }
      const siteIds = await mapSites(report.rows);
      const known = siteIds.filter((x): x is number => x !== null);
      const credited = await repo.approvedPairs([...new Set(known)]);
      const inFile = new Set<string>();
      const id = await repo.transaction((tx) =>
        repo.insertImport(
          tx,
          {
            fileName: fileName.slice(0, 255) || 'adsense.csv',
            format: report.format,
            currency: report.currency,
            uploadedBy: adminId,
          },
          report.rows.map((r, i) => {
            const siteId = siteIds[i] ?? null;
            const errors = [...r.errors];
            // a site's day may have a row per ad unit; the same unit's row twice is the same income twice
            const unit = `${siteId}|${r.date}|${r.source.trim().toLowerCase()}`;
            if (siteId === null) errors.push({ field: 'site_id', code: 'adsense_no_site' });
            else if (r.date && credited.has(`${siteId}|${r.date}`))
              errors.push({ field: 'date', code: 'adsense_duplicate' });
            else if (r.date && inFile.has(unit)) errors.push({ field: 'date', code: 'adsense_repeated' });
            if (siteId !== null && r.date && !errors.length) inFile.add(unit);
            return {
              line: r.line,
              date: r.date,
              source: r.source,
              siteId,
              pageViews: r.pageViews,
              impressions: r.impressions,
              clicks: r.clicks,
              revenue: toPlatform(r.revenue),
              errors,
            };
          }),
        ),
      );
      return detail(id, t);
    },

    /**
     * Applies the admin's site choices and credits each publisher's share, once: the import turns
     * approved in the same transaction as the ledger rows, and a racing second approval finds it
     * approved already (409). Rows with errors are kept but never credited.
     */
    async approve(input: AdsenseApprove['adsense'], adminId: number, t: Translate) {
      const importId = Number(input._id);
      const changes = input.rows ?? [];
      const wanted = [
        ...new Set(
          changes
            .map((c) => c.site_id)
            .filter((x): x is string => x !== null)
            .map(Number),
        ),
      ];
      const existing = await repo.existingSiteIds(wanted);
      const bad = changes.flatMap((c, i) =>
        c.site_id !== null && !existing.has(Number(c.site_id))
          ? [{ field: `rows.${i}.site_id`, code: 'unknown_id', params: { id: c.site_id } }]
          : [],
      );
      if (bad.length) throw new FieldsError(bad);
      if (!(await repo.findImport(importId))) throw new AppError(404, 'not_found');

      for (let attempt = 1; ; attempt++) {
        try {
          await approveIn(importId, changes, adminId);
          break;
        } catch (err) {
          // a deadlock or serialization failure rolled the whole transaction back: it is run again (it then
          // sees what the other transaction committed); if it keeps failing, a retryable 503, not a 409
          if (isRetryable(err)) {
            if (attempt < APPROVE_ATTEMPTS) continue;
            throw new AppError(503, 'adsense_retry');
          }
          // another import approved at this moment credited one of these site days first (its claim
          // committed before ours): nothing of this approval is kept, and approving again flags those days
          if (uniqueViolation(err)) throw new AppError(409, 'adsense_credited_meanwhile');
          throw err;
        }
      }
      return detail(importId, t);
    },
  };

  async function approveIn(
    importId: number,
    changes: NonNullable<AdsenseApprove['adsense']['rows']>,
    adminId: number,
  ) {
    await repo.transaction(async (tx) => {
      if (!(await repo.markApproved(tx, importId, adminId))) throw new AppError(409, 'adsense_approved');
      let rows = await repo.rows(importId, tx);
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      const unknownRows = changes.flatMap((c, i) =>
        byId.has(c._id) ? [] : [{ field: `rows.${i}._id`, code: 'unknown_id', params: { id: c._id } }],
      );
      if (unknownRows.length) throw new FieldsError(unknownRows);
      for (const c of changes) {
        const row = byId.get(c._id)!;
        const siteId = c.site_id === null ? null : Number(c.site_id);
        if (siteId === row.siteId) continue;
        // the admin names the row's site: it is credited as mapped (a repeated row it maps on purpose too)
        const errors = withoutCodes(row.errors, ['adsense_no_site', 'adsense_duplicate', 'adsense_repeated']);
        if (siteId === null) errors.push({ field: 'site_id', code: 'adsense_no_site' });
        await repo.updateRow(tx, row.id, { siteId, errors });
      }
      if (changes.length) rows = await repo.rows(importId, tx);

      const siteIds = [...new Set(rows.map((r) => r.siteId).filter((x): x is number => x !== null))];
      const credited = await repo.approvedPairs(siteIds, importId, tx);
      const terms = await repo.siteTerms(siteIds, tx);
      const perUser = new Map<string, { userId: number; type: CreditType; sum: bigint }>();
      const claimed = new Map<string, { siteId: number; date: string }>();
      for (const r of rows) {
        if (r.errors.length || r.siteId === null) continue;
        if (r.date && credited.has(`${r.siteId}|${r.date}`)) {
          await repo.updateRow(tx, r.id, { errors: [{ field: 'date', code: 'adsense_duplicate' }] });
          continue;
        }
        const siteTerms = terms.get(r.siteId);
        const share = shareOf(r.revenue, r.clicks, siteTerms);
        const split = siteTerms ? splitIncome(r.revenue, r.clicks, siteTerms) : undefined;
        // site_income is the site's whole share (its publisher's and its agency's part); own_income is what
        // the platform keeps after the referrer's part, so revenue = site + referral + own, as the ledger says
        // publisher_income is the owner's part of the share (what its balance got: the share less its agency's)
        await repo.updateRow(tx, r.id, {
          siteIncome: share,
          ownIncome: split?.platform ?? r.revenue - share,
          publisherIncome: split?.publisher ?? share,
        });
        if (r.date) claimed.set(`${r.siteId}|${r.date}`, { siteId: r.siteId, date: r.date });
        if (!split) continue;
        for (const c of split.credits) {
          if (c.sum <= 0n) continue;
          const key = `${c.userId}|${c.type}`;
          const sum = (perUser.get(key)?.sum ?? 0n) + c.sum;
          perUser.set(key, { userId: c.userId, type: c.type, sum });
        }
      }
      // claimed in one order by every approval, so two racing ones wait for each other, never deadlock
      const claims = [...claimed.values()].sort(
        (a, b) => a.siteId - b.siteId || a.date.localeCompare(b.date),
      );
      await repo.claimCredits(tx, importId, claims);
      const moves = [...perUser.values()].sort((a, b) => a.userId - b.userId || a.type.localeCompare(b.type));
      const told = new Map<number, bigint>();
      for (const m of moves) {
        await ledger.move(tx, {
          userId: m.userId,
          type: m.type,
          sum: m.sum,
          source: 'adsense',
          actorId: adminId,
          ref: `adsense:${importId}`,
        });
        told.set(m.userId, (told.get(m.userId) ?? 0n) + m.sum);
      }
      // each credited user is told once per import, in the transaction of the credit
      for (const [userId, sum] of told)
        await notify(tx, {
          type: 'adsense_income',
          userId,
          payload: { import_id: String(importId), sum: fromMicros(sum) },
        });
    });
  }
}
export type Adsense = ReturnType<typeof createAdsense>;
