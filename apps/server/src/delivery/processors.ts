/**
 * A widget's processor (SPEC.md section 3) decides what fills its slots: sponsored creatives (which ads
 * types, in which order) and/or the site's own materials. This table is the one place that says it; the
 * README lists what each one does.
 */
export interface Plan {
  /** Sponsored creatives of these ads types (any when undefined) fill the slots first. */
  sponsored: boolean;
  adstypes?: ReadonlySet<string>;
  /** Weighted random by campaign weight, or best observed CTR (with a prior) first. */
  order: 'random' | 'ctr';
  /** At most this many sponsored items per answer. */
  maxSponsored?: number;
  /** The site's own materials fill what the sponsored items leave. */
  organic: boolean;
}

const native = new Set(['default']);

const plans: Record<string, Plan> = {
  default: { sponsored: true, adstypes: native, order: 'random', organic: true },
  bannerrandom: { sponsored: true, adstypes: native, order: 'random', organic: false },
  topctr: { sponsored: true, adstypes: native, order: 'ctr', organic: true },
  videobannerrandom: { sponsored: true, adstypes: new Set(['video']), order: 'random', organic: false },
  articlerandom: { sponsored: false, order: 'random', organic: true },
  dummy: { sponsored: false, order: 'random', organic: false },
};

export function planOf(processor: string): Plan {
  return plans[processor] ?? (plans.default as Plan);
}
