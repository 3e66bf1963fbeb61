import { defaultTargeting, type Targeting, targeting } from '@adp/contract';
import { describe, expect, test } from 'vitest';
import { ipInRange, matches, rejectedBy, type TargetingRequest } from './targeting.ts';

/** Monday 23 November 2026, 10:30 UTC. */
const NOW = new Date('2026-11-23T10:30:00Z');

/** A request where every fact is known; each dimension's table row below lists its value. */
const request = (over: Partial<TargetingRequest> = {}): TargetingRequest => ({
  now: NOW,
  device: 'mobile',
  os: 'android',
  browser: 'chrome',
  browserLanguage: 'ru',
  userLanguage: 'uk',
  country: 'DE',
  cityId: 2950159,
  siteId: '12',
  widgetType: 'infinite',
  siteLanguage: 'fr',
  ip: '203.0.113.7',
  audiences: ['5'],
  dspPartnerId: '7',
  prebidPartnerId: '9',
  seen: { impressions: 0, clicks: 0 },
  ...over,
});

/** A request where nothing but the time is known. */
const unknownRequest = (): TargetingRequest => ({
  now: NOW,
  device: null,
  os: null,
  browser: null,
  browserLanguage: null,
  userLanguage: null,
  country: null,
  cityId: null,
  siteId: null,
  widgetType: null,
  siteLanguage: null,
  ip: null,
  audiences: [],
  dspPartnerId: null,
  prebidPartnerId: null,
  seen: { impressions: 0, clicks: 0 },
});

/** Rules through the schema, so every value used here is also a valid stored value. */
const rules = (input: Record<string, unknown>): Targeting => targeting.parse(input);
const at = (iso: string, over: Partial<TargetingRequest> = {}) => request({ now: new Date(iso), ...over });

type Dimension = Exclude<keyof Targeting, 'start_date' | 'end_date' | 'capping'>;
interface Row {
  dim: Dimension;
  /** Values that include the request's one (listed last, so the match is not always the first entry). */
  listed: unknown[];
  /** Values that do not include it. */
  unlisted: unknown[];
  /** Makes the request's value unknown; null where the value is read from the clock and always known. */
  unknown: Partial<TargetingRequest> | null;
}

const rows: Row[] = [
  {
    dim: 'dates',
    listed: [
      { from: '2026-01-01', to: '2026-01-31' },
      { from: '2026-11-20', to: '2026-11-25' },
    ],
    unlisted: [{ from: '2026-12-01', to: '2026-12-31' }],
    unknown: null,
  },
  {
    dim: 'time',
    listed: [
      { from: '20:00', to: '21:00' },
      { from: '09:00', to: '18:00' },
    ],
    unlisted: [{ from: '11:00', to: '12:00' }],
    unknown: null,
  },
  { dim: 'hours', listed: [3, 10], unlisted: [9, 11], unknown: null },
  { dim: 'weekdays', listed: [5, 1], unlisted: [2, 3, 4, 5, 6, 7], unknown: null },
  { dim: 'days_of_month', listed: [1, 23], unlisted: [22, 24], unknown: null },
  {
    dim: 'devices',
    listed: ['desktop', 'mobile'],
    unlisted: ['desktop', 'tablet', 'tv'],
    unknown: { device: null },
  },
  { dim: 'os', listed: ['ios', 'android'], unlisted: ['ios', 'windows'], unknown: { os: null } },
  { dim: 'browsers', listed: ['safari', 'chrome'], unlisted: ['firefox'], unknown: { browser: null } },
  { dim: 'browser_languages', listed: ['en', 'ru'], unlisted: ['en'], unknown: { browserLanguage: null } },
  { dim: 'user_languages', listed: ['de', 'uk'], unlisted: ['de'], unknown: { userLanguage: null } },
  { dim: 'countries', listed: ['FR', 'DE'], unlisted: ['FR', 'AT'], unknown: { country: null } },
  { dim: 'cities', listed: [524901, 2950159], unlisted: [524901], unknown: { cityId: null } },
  { dim: 'sites', listed: ['1', '12'], unlisted: ['1', '120', '2'], unknown: { siteId: null } },
  {
    dim: 'widget_types',
    listed: ['slide', 'infinite'],
    unlisted: ['default'],
    unknown: { widgetType: null },
  },
  { dim: 'site_languages', listed: ['pt', 'fr'], unlisted: ['pt'], unknown: { siteLanguage: null } },
  {
    dim: 'ips',
    listed: ['198.51.100.0/24', '203.0.113.0/24'],
    unlisted: ['198.51.100.0/24', '203.0.113.8', '2001:db8::/32'],
    unknown: { ip: null },
  },
  { dim: 'pixels', listed: ['4', '5'], unlisted: ['6'], unknown: { audiences: [] } },
  { dim: 'dsp_partners', listed: ['8', '7'], unlisted: ['8', '70'], unknown: { dspPartnerId: null } },
  { dim: 'prebid_partners', listed: ['10', '9'], unlisted: ['10'], unknown: { prebidPartnerId: null } },
];

test('the table covers every targeting dimension of the schema', () => {
  const all = Object.keys(targeting.shape).filter((k) => !['start_date', 'end_date', 'capping'].includes(k));
  expect(rows.map((r) => r.dim).sort()).toEqual(all.sort());
});

test('the base request passes every dimension in every row while the dimension is inactive', () => {
  expect(rejectedBy(defaultTargeting(), request())).toBeNull();
  expect(rejectedBy(defaultTargeting(), unknownRequest())).toBeNull();
});

describe.each(rows)('$dim', ({ dim, listed, unlisted, unknown }) => {
  const rule = (state: string, values: unknown[]) => rules({ [dim]: { state, values } });

  test('inactive passes whatever is listed, even for an unknown value', () => {
    for (const values of [listed, unlisted, []]) {
      expect(rejectedBy(rule('inactive', values), request())).toBeNull();
      if (unknown) expect(rejectedBy(rule('inactive', values), request(unknown))).toBeNull();
    }
  });

  test('active passes when the request value is listed', () => {
    expect(rejectedBy(rule('active', listed), request())).toBeNull();
    expect(matches(rule('active', listed), request())).toBe(true);
  });

  test('active rejects when the request value is not listed', () => {
    expect(rejectedBy(rule('active', unlisted), request())).toBe(dim);
    expect(matches(rule('active', unlisted), request())).toBe(false);
  });

  test('active with an empty list rejects everything', () => {
    expect(rejectedBy(rule('active', []), request())).toBe(dim);
  });

  if (unknown) {
    test('active rejects an unknown request value', () => {
      expect(rejectedBy(rule('active', listed), request(unknown))).toBe(dim);
      expect(rejectedBy(rule('active', unlisted), request(unknown))).toBe(dim);
    });
  }

  test('negative rejects when the request value is listed', () => {
    expect(rejectedBy(rule('negative', listed), request())).toBe(dim);
    expect(matches(rule('negative', listed), request())).toBe(false);
  });

  test('negative passes when the request value is not listed', () => {
    expect(rejectedBy(rule('negative', unlisted), request())).toBeNull();
    expect(rejectedBy(rule('negative', []), request())).toBeNull();
  });

  if (unknown) {
    test('negative passes an unknown request value', () => {
      expect(rejectedBy(rule('negative', listed), request(unknown))).toBeNull();
      expect(rejectedBy(rule('negative', unlisted), request(unknown))).toBeNull();
    });
  }
});

describe('start and end dates', () => {
  test('both bounds are inclusive, whole days in UTC', () => {
    const t = rules({ start_date: '2026-11-23', end_date: '2026-11-23' });
    expect(rejectedBy(t, at('2026-11-23T00:00:00.000Z'))).toBeNull();
    expect(rejectedBy(t, at('2026-11-23T23:59:59.999Z'))).toBeNull();
    expect(rejectedBy(t, at('2026-11-22T23:59:59.999Z'))).toBe('start_date');
    expect(rejectedBy(t, at('2026-11-24T00:00:00.000Z'))).toBe('end_date');
  });

  test('a null bound is open', () => {
    expect(rejectedBy(rules({ start_date: '2026-11-01' }), at('2099-01-01T00:00:00Z'))).toBeNull();
    expect(rejectedBy(rules({ end_date: '2026-11-30' }), at('2000-01-01T00:00:00Z'))).toBeNull();
    expect(rejectedBy(rules({ start_date: '2026-11-24' }), request())).toBe('start_date');
    expect(rejectedBy(rules({ end_date: '2026-11-22' }), request())).toBe('end_date');
  });

  test('start and end dates apply even when every dimension is inactive', () => {
    const t = rules({ start_date: '2027-01-01' });
    expect(t.dates.state).toBe('inactive');
    expect(matches(t, request())).toBe(false);
  });
});

describe('dates ranges', () => {
  const t = rules({ dates: { state: 'active', values: [{ from: '2026-11-10', to: '2026-11-20' }] } });
  test.each([
    ['2026-11-09T23:59:59Z', false],
    ['2026-11-10T00:00:00Z', true],
    ['2026-11-15T12:00:00Z', true],
    ['2026-11-20T23:59:59Z', true],
    ['2026-11-21T00:00:00Z', false],
  ])('%s is inside 2026-11-10..2026-11-20: %s', (iso, inside) => {
    expect(matches(t, at(iso))).toBe(inside);
  });

  test('a one-day range matches that day only', () => {
    const day = rules({ dates: { state: 'active', values: [{ from: '2026-11-23', to: '2026-11-23' }] } });
    expect(matches(day, request())).toBe(true);
    expect(matches(day, at('2026-11-24T10:30:00Z'))).toBe(false);
  });
});

describe('time windows', () => {
  const window = (from: string, to: string, state = 'active') =>
    rules({ time: { state, values: [{ from, to }] } });

  test.each([
    ['08:59', false],
    ['09:00', true],
    ['13:00', true],
    ['17:59', true],
    ['18:00', false],
  ])('09:00–18:00 at %s: %s (start inclusive, end exclusive)', (hhmm, inside) => {
    expect(matches(window('09:00', '18:00'), at(`2026-11-23T${hhmm}:00Z`))).toBe(inside);
  });

  test.each([
    ['21:59', false],
    ['22:00', true],
    ['23:59', true],
    ['00:00', true],
    ['01:59', true],
    ['02:00', false],
    ['12:00', false],
  ])('22:00–02:00 wraps past midnight, at %s: %s', (hhmm, inside) => {
    expect(matches(window('22:00', '02:00'), at(`2026-11-23T${hhmm}:00Z`))).toBe(inside);
    expect(matches(window('22:00', '02:00', 'negative'), at(`2026-11-23T${hhmm}:00Z`))).toBe(!inside);
  });

  test('a window ending at 00:00 runs to the end of the day', () => {
    expect(matches(window('22:00', '00:00'), at('2026-11-23T23:59:00Z'))).toBe(true);
    expect(matches(window('22:00', '00:00'), at('2026-11-23T00:00:00Z'))).toBe(false);
    expect(matches(window('22:00', '00:00'), at('2026-11-23T21:59:00Z'))).toBe(false);
  });

  test('seconds do not matter, minutes do', () => {
    expect(matches(window('10:30', '10:31'), at('2026-11-23T10:30:59.999Z'))).toBe(true);
    expect(matches(window('10:30', '10:31'), at('2026-11-23T10:31:00Z'))).toBe(false);
  });

  test('any one of several windows is enough', () => {
    const t = rules({
      time: {
        state: 'active',
        values: [
          { from: '06:00', to: '08:00' },
          { from: '22:00', to: '01:00' },
        ],
      },
    });
    expect(matches(t, at('2026-11-23T07:00:00Z'))).toBe(true);
    expect(matches(t, at('2026-11-23T00:30:00Z'))).toBe(true);
    expect(matches(t, at('2026-11-23T10:00:00Z'))).toBe(false);
  });

  test('the time is read in UTC (server time)', () => {
    // 23:30 in UTC is 01:30 the next day in UTC+2: the UTC reading decides
    expect(matches(window('23:00', '23:59'), at('2026-11-23T23:30:00Z'))).toBe(true);
    expect(matches(window('23:00', '23:59'), at('2026-11-24T01:30:00+02:00'))).toBe(true);
  });
});

describe('hours, weekdays and days of month read the UTC clock', () => {
  test.each([
    ['2026-11-23T00:00:00Z', 0],
    ['2026-11-23T10:59:59Z', 10],
    ['2026-11-23T23:00:00Z', 23],
    ['2026-11-24T01:00:00+02:00', 23],
  ])('at %s the hour is %i', (iso, hour) => {
    const t = rules({ hours: { state: 'active', values: [hour] } });
    expect(matches(t, at(iso))).toBe(true);
    expect(matches(rules({ hours: { state: 'active', values: [(hour + 1) % 24] } }), at(iso))).toBe(false);
  });

  test.each([
    ['2026-11-23', 1, 'Monday'],
    ['2026-11-24', 2, 'Tuesday'],
    ['2026-11-25', 3, 'Wednesday'],
    ['2026-11-26', 4, 'Thursday'],
    ['2026-11-27', 5, 'Friday'],
    ['2026-11-28', 6, 'Saturday'],
    ['2026-11-29', 7, 'Sunday'],
  ])('%s is weekday %i (%s)', (day, weekday) => {
    for (const time of ['00:00:00', '23:59:59']) {
      const now = at(`${day}T${time}Z`);
      for (let d = 1; d <= 7; d += 1) {
        expect(matches(rules({ weekdays: { state: 'active', values: [d] } }), now)).toBe(d === weekday);
      }
    }
  });

  test('Sunday late evening in UTC is still Sunday though it is Monday in UTC+3', () => {
    const t = rules({ weekdays: { state: 'active', values: [7] } });
    expect(matches(t, at('2026-11-30T01:00:00+03:00'))).toBe(true);
  });

  test.each([
    ['2026-12-01T00:00:00Z', 1],
    ['2026-12-31T23:59:59Z', 31],
    ['2028-02-29T12:00:00Z', 29],
    ['2026-12-01T01:00:00+03:00', 30],
  ])('at %s the day of month is %i', (iso, day) => {
    expect(matches(rules({ days_of_month: { state: 'active', values: [day] } }), at(iso))).toBe(true);
    expect(matches(rules({ days_of_month: { state: 'negative', values: [day] } }), at(iso))).toBe(false);
  });
});

describe('IP ranges', () => {
  test.each([
    ['203.0.113.7', '203.0.113.0/24', true],
    ['203.0.113.255', '203.0.113.0/24', true],
    ['203.0.114.0', '203.0.113.0/24', false],
    ['10.200.1.1', '10.0.0.0/8', true],
    ['11.0.0.1', '10.0.0.0/8', false],
    ['1.2.3.4', '0.0.0.0/0', true],
    ['203.0.113.7', '203.0.113.7', true],
    ['203.0.113.7', '203.0.113.7/32', true],
    ['203.0.113.8', '203.0.113.7', false],
    ['2001:db8::1', '2001:db8::/32', true],
    ['2001:db8:ffff:ffff::1', '2001:db8::/32', true],
    ['2001:db9::1', '2001:db8::/32', false],
    ['2001:db8::1', '2001:db8::1', true],
    ['2001:db8::1', '2001:0db8:0000::0001', true],
    ['2001:db8::2', '2001:db8::1', false],
    ['2001:db8::1', '2001:db8::1/128', true],
    ['::ffff:203.0.113.7', '203.0.113.0/24', true],
    ['::ffff:203.0.113.7', '203.0.113.7', true],
    ['::ffff:cb00:7107', '203.0.113.0/24', true],
    ['::ffff:198.51.100.1', '203.0.113.0/24', false],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.0/120', true],
    ['203.0.113.7', '2001:db8::/32', false],
    ['2001:db8::1', '0.0.0.0/0', false],
    ['not-an-ip', '0.0.0.0/0', false],
    ['203.0.113.7', 'not-a-range', false],
  ])('%s in %s: %s', (ip, range, inside) => {
    expect(ipInRange(ip, range)).toBe(inside);
  });

  test('the ips dimension uses the ranges: a mapped IPv6 request matches an IPv4 rule', () => {
    const t = rules({ ips: { state: 'active', values: ['203.0.113.0/24', '2001:db8::/32'] } });
    expect(matches(t, request({ ip: '::ffff:203.0.113.9' }))).toBe(true);
    expect(matches(t, request({ ip: '2001:db8::abcd' }))).toBe(true);
    expect(matches(t, request({ ip: '198.51.100.1' }))).toBe(false);
    const blocked = rules({ ips: { state: 'negative', values: ['203.0.113.0/24'] } });
    expect(matches(blocked, request({ ip: '::ffff:203.0.113.9' }))).toBe(false);
    expect(matches(blocked, request({ ip: '198.51.100.1' }))).toBe(true);
  });
});

describe('capping', () => {
  const seen = (impressions: number, clicks: number) => request({ seen: { impressions, clicks } });

  test('an impressions cap refuses from the cap on', () => {
    const t = rules({ capping: { state: 'active', impressions: 3 } });
    expect(rejectedBy(t, seen(0, 0))).toBeNull();
    expect(rejectedBy(t, seen(2, 0))).toBeNull();
    expect(rejectedBy(t, seen(3, 0))).toBe('capping');
    expect(rejectedBy(t, seen(50, 0))).toBe('capping');
    // clicks are not capped here
    expect(rejectedBy(t, seen(0, 1000))).toBeNull();
  });

  test('a clicks cap refuses from the cap on', () => {
    const t = rules({ capping: { state: 'active', clicks: 1 } });
    expect(rejectedBy(t, seen(1000, 0))).toBeNull();
    expect(rejectedBy(t, seen(0, 1))).toBe('capping');
  });

  test('with both caps either one refuses', () => {
    const t = rules({ capping: { state: 'active', impressions: 5, clicks: 2 } });
    expect(rejectedBy(t, seen(4, 1))).toBeNull();
    expect(rejectedBy(t, seen(5, 0))).toBe('capping');
    expect(rejectedBy(t, seen(0, 2))).toBe('capping');
  });

  test('inactive capping ignores the counts', () => {
    const t = rules({ capping: { state: 'inactive', impressions: 1, clicks: 1 } });
    expect(rejectedBy(t, seen(1000, 1000))).toBeNull();
  });

  test('active capping without caps refuses nothing', () => {
    expect(rejectedBy(rules({ capping: { state: 'active' } }), seen(1000, 1000))).toBeNull();
  });
});

describe('several dimensions together', () => {
  const combined = rules({
    start_date: '2026-11-01',
    end_date: '2026-11-30',
    weekdays: { state: 'active', values: [1, 2, 3, 4, 5] },
    devices: { state: 'active', values: ['mobile', 'tablet'] },
    countries: { state: 'active', values: ['DE', 'AT'] },
    sites: { state: 'negative', values: ['13'] },
    ips: { state: 'negative', values: ['10.0.0.0/8'] },
    capping: { state: 'active', impressions: 3 },
  });

  test('a request that fits every rule matches', () => {
    expect(rejectedBy(combined, request())).toBeNull();
    expect(matches(combined, request())).toBe(true);
  });

  test.each<[string, Partial<TargetingRequest>, keyof Targeting]>([
    ['a date before the start', { now: new Date('2026-10-31T10:00:00Z') }, 'start_date'],
    ['a date after the end', { now: new Date('2026-12-01T10:00:00Z') }, 'end_date'],
    ['a Saturday', { now: new Date('2026-11-28T10:00:00Z') }, 'weekdays'],
    ['a desktop', { device: 'desktop' }, 'devices'],
    ['another country', { country: 'FR' }, 'countries'],
    ['an unknown country', { country: null }, 'countries'],
    ['a blocked site', { siteId: '13' }, 'sites'],
    ['a blocked IP', { ip: '10.1.2.3' }, 'ips'],
    ['a visitor over the cap', { seen: { impressions: 3, clicks: 0 } }, 'capping'],
  ])('%s is refused by the rule it breaks', (_, over, dim) => {
    expect(rejectedBy(combined, request(over))).toBe(dim);
    expect(matches(combined, request(over))).toBe(false);
  });

  test('the first failing rule is named, in the order dates, clock, visitor, placement, IP, capping', () => {
    const all = {
      now: new Date('2026-12-05T10:00:00Z'), // after the end and a Saturday
      device: 'desktop' as const,
      country: 'FR',
      siteId: '13',
      ip: '10.1.2.3',
      seen: { impressions: 9, clicks: 0 },
    };
    expect(rejectedBy(combined, request(all))).toBe('end_date');
    expect(rejectedBy(combined, request({ ...all, now: NOW }))).toBe('devices');
    expect(rejectedBy(combined, request({ ...all, now: NOW, device: 'mobile' }))).toBe('countries');
    expect(rejectedBy(combined, request({ ...all, now: NOW, device: 'mobile', country: 'AT' }))).toBe(
      'sites',
    );
    expect(
      rejectedBy(combined, request({ ...all, now: NOW, device: 'mobile', country: 'AT', siteId: '1' })),
    ).toBe('ips');
    expect(
      rejectedBy(
        combined,
        request({ ...all, now: NOW, device: 'mobile', country: 'AT', siteId: '1', ip: null }),
      ),
    ).toBe('capping');
  });

  test('the order of the whole dimension list', () => {
    const everything = rules(
      Object.fromEntries(rows.map((r) => [r.dim, { state: 'active', values: r.unlisted }])) as Record<
        string,
        unknown
      >,
    );
    const order: (keyof Targeting)[] = [];
    let current = everything;
    for (;;) {
      const failed = rejectedBy(current, request());
      if (failed === null) break;
      order.push(failed);
      current = { ...current, [failed]: { state: 'inactive', values: [] } } as Targeting;
    }
    expect(order).toEqual(rows.map((r) => r.dim));
  });
});

test('the default rules (nothing targeted) let every request through, known or not', () => {
  expect(matches(defaultTargeting(), request())).toBe(true);
  expect(matches(defaultTargeting(), unknownRequest())).toBe(true);
});
