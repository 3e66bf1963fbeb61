import type { IndexedWidget } from './ad-index.ts';

export type CreditType = 'publisher_earning' | 'agency_earning' | 'referral_earning';

/** An agency's cut: its account and its rate in basis points. */
export interface AgencyCut {
  userId: number;
  bp: bigint;
}

/**
 * The money of one charge (a click's price, or a DSP partner's payment for a won impression): who gets
 * what, integers only (DESIGN.md "Money per charged click"):
 * - the publisher earns by the widget's earn processor (`percent`: earn_value % of the charge; `fixed`:
 *   earn_value per charge, never more than it), on a site paid per click (payment method `revshare` or
 *   `cpc`); a `cpm` or `fixed` site earns nothing per charge;
 * - the site owner's agency gets `agencyBp` of the publisher's share (clicks: the site's agency rate, else
 *   its agency group's; DSP wins: the group's phoenix rate, given as `agencyBp` by dspSplit);
 * - the campaign owner's agency group gets its campaign rate of the charge (`campaignAgency`), out of the
 *   platform's income and never more than it;
 * - referrers get their percent of what the platform's income is after that, in order, never more than it;
 * - the platform keeps the rest. publisher + agency + referral + platform = price, always.
 */
export function splitCharge(
  price: bigint,
  widget: Pick<IndexedWidget, 'earnProcessor' | 'earnValue' | 'agencyUserId' | 'agencyBp' | 'publisherId'> &
    Partial<Pick<IndexedWidget, 'perChargeUntil'>>,
  referrers: { userId: number; bp: bigint }[],
  campaignAgency?: AgencyCut | null,
) {
  // a site paid per thousand impressions (cpm-earnings.ts) or a flat fee (an admin's payment) earns nothing
  // per charge from the whole hour after its switch: the platform's income is the whole price (AdSense
  // income, which names no widget's terms, is split as before)
  const perCharge = widget.perChargeUntil === undefined || Date.now() < widget.perChargeUntil;
  const gross = !perCharge
    ? 0n
    : widget.earnProcessor === 'fixed'
      ? widget.earnValue < price
        ? widget.earnValue
        : price
      : // a percent is at most 100 (the widget's rules refuse more; a stored one is held to it here too)
        (price * (widget.earnValue < 100_000_000n ? widget.earnValue : 100_000_000n)) / 100_000_000n;
  const siteAgency = widget.agencyUserId ? (gross * widget.agencyBp) / 10_000n : 0n;
  const publisher = gross - siteAgency;
  let income = price - gross;
  const credits: { userId: number; type: CreditType; sum: bigint }[] = [
    { userId: widget.publisherId, type: 'publisher_earning', sum: publisher },
  ];
  if (widget.agencyUserId)
    credits.push({ userId: widget.agencyUserId, type: 'agency_earning', sum: siteAgency });
  let agency = siteAgency;
  if (campaignAgency && campaignAgency.bp > 0n) {
    const share = (price * campaignAgency.bp) / 10_000n;
    const due = share < income ? share : income;
    if (due > 0n) {
      agency += due;
      income -= due;
      credits.push({ userId: campaignAgency.userId, type: 'agency_earning', sum: due });
    }
  }
  let referral = 0n;
  for (const r of referrers) {
    const share = (income * r.bp) / 10_000n;
    const room = income - referral;
    const due = share < room ? share : room;
    if (due <= 0n) continue;
    referral += due;
    credits.push({ userId: r.userId, type: 'referral_earning', sum: due });
  }
  return { publisher, agency, referral, platform: income - referral, credits };
}

/**
 * The split of a DSP partner's payment for a won slot: as a click's, with the agency group's phoenix rate
 * in place of the agency rate (no campaign of ours was charged, so no campaign rate).
 */
export function dspSplit(
  revenue: bigint,
  widget: Pick<
    IndexedWidget,
    'earnProcessor' | 'earnValue' | 'agencyUserId' | 'phoenixBp' | 'publisherId' | 'agencyBp'
  > &
    Partial<Pick<IndexedWidget, 'perChargeUntil' | 'paymentMethod'>>,
  referrers: { userId: number; bp: bigint }[],
) {
  // a CPM site's DSP-won slots are no impressions of ours (CPM pays for those): the win pays as a click's
  // share would, so the slot is not lost to the publisher
  const perChargeUntil = widget.paymentMethod === 'cpm' ? undefined : widget.perChargeUntil;
  return splitCharge(revenue, { ...widget, agencyBp: widget.phoenixBp ?? 0n, perChargeUntil }, referrers);
}
