import { describe, expect, test } from 'vitest';
import { defaultTargeting, parseRange, type Targeting, targeting } from './targeting.ts';

// Evaluation (matches, rejectedBy, ipInRange) is delivery's: apps/server/src/delivery/targeting.test.ts.

const rules = (input: Record<string, unknown>): Targeting => targeting.parse(input);
const dimensions = Object.keys(targeting.shape).filter(
  (k) => !['start_date', 'end_date', 'capping'].includes(k),
) as Exclude<keyof Targeting, 'start_date' | 'end_date' | 'capping'>[];

describe('IP ranges', () => {
  test('parseRange reads addresses as one-address ranges and CIDR as given', () => {
    expect(parseRange('203.0.113.7')?.[1]).toBe(32);
    expect(parseRange('2001:db8::1')?.[1]).toBe(128);
    expect(parseRange('10.0.0.0/8')?.map(String)).toEqual(['10.0.0.0', '8']);
    expect(parseRange('2001:db8::/32')?.[1]).toBe(32);
  });

  test.each([
    '',
    'not-an-ip',
    '300.1.1.1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '2001:db8::/129',
    '2001:db8:::1',
    // ipaddr.js alone reads these loose IPv4 forms; a CSV row like them is a typo, not an address
    '010.0.0.1',
    '1.2.3',
    '12345',
    '0x0a.0.0.1',
    '1.2.3/24',
  ])('parseRange refuses %j', (range) => {
    expect(parseRange(range)).toBeNull();
  });
});

describe('schema', () => {
  const refused = (input: Record<string, unknown>) => {
    const r = targeting.safeParse(input);
    expect(r.success).toBe(false);
    return r.error?.issues.map((i) => i.path.join('.')) ?? [];
  };

  test('the defaults are every dimension inactive with nothing listed, no dates and no capping', () => {
    const t = defaultTargeting();
    expect(t.start_date).toBeNull();
    expect(t.end_date).toBeNull();
    for (const dim of dimensions) expect(t[dim]).toEqual({ state: 'inactive', values: [] });
    expect(t.capping).toEqual({ state: 'inactive', impressions: null, clicks: null, period_hours: 24 });
    expect(targeting.parse({})).toEqual(t);
  });

  test('two defaults do not share a values list', () => {
    const a = defaultTargeting();
    a.countries.values.push('DE');
    expect(defaultTargeting().countries.values).toEqual([]);
    expect(targeting.parse({}).countries.values).toEqual([]);
  });

  test('a dimension given only its state gets an empty list, only values gets inactive', () => {
    const t = rules({ countries: { state: 'active' }, devices: { values: ['tv'] } });
    expect(t.countries).toEqual({ state: 'active', values: [] });
    expect(t.devices).toEqual({ state: 'inactive', values: ['tv'] });
  });

  test('a stored targeting parses back to itself', () => {
    const t = rules({
      start_date: '2026-11-01',
      time: { state: 'active', values: [{ from: '22:00', to: '02:00' }] },
      ips: { state: 'negative', values: [' 10.0.0.0/8 ', '2001:db8::1'] },
      capping: { state: 'active', impressions: 3, period_hours: 48 },
    });
    expect(t.ips.values).toEqual(['10.0.0.0/8', '2001:db8::1']);
    expect(targeting.parse(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  test.each<[string, Record<string, unknown>, string]>([
    [
      'time 24:00',
      { time: { state: 'active', values: [{ from: '09:00', to: '24:00' }] } },
      'time.values.0.to',
    ],
    [
      'time 9:00',
      { time: { state: 'active', values: [{ from: '9:00', to: '18:00' }] } },
      'time.values.0.from',
    ],
    [
      'time 12:60',
      { time: { state: 'active', values: [{ from: '12:60', to: '18:00' }] } },
      'time.values.0.from',
    ],
    ['time without a to', { time: { state: 'active', values: [{ from: '12:00' }] } }, 'time.values.0.to'],
    ['a bad CIDR', { ips: { state: 'active', values: ['10.0.0.0/33'] } }, 'ips.values.0'],
    ['not an IP', { ips: { state: 'active', values: ['10.0.0.0', 'example.com'] } }, 'ips.values.1'],
    ['a loose IPv4 form', { ips: { state: 'active', values: ['010.0.0.1'] } }, 'ips.values.0'],
    ['an unknown device', { devices: { state: 'active', values: ['phone'] } }, 'devices.values.0'],
    ['an unknown OS', { os: { state: 'active', values: ['symbian'] } }, 'os.values.0'],
    ['an unknown browser', { browsers: { state: 'active', values: ['netscape'] } }, 'browsers.values.0'],
    ['weekday 8', { weekdays: { state: 'active', values: [8] } }, 'weekdays.values.0'],
    ['weekday 0', { weekdays: { state: 'active', values: [0] } }, 'weekdays.values.0'],
    ['hour 24', { hours: { state: 'active', values: [24] } }, 'hours.values.0'],
    ['hour 1.5', { hours: { state: 'active', values: [1.5] } }, 'hours.values.0'],
    ['day of month 0', { days_of_month: { state: 'active', values: [0] } }, 'days_of_month.values.0'],
    ['day of month 32', { days_of_month: { state: 'active', values: [32] } }, 'days_of_month.values.0'],
    ['a lower-case country', { countries: { state: 'active', values: ['de'] } }, 'countries.values.0'],
    ['a three-letter country', { countries: { state: 'active', values: ['DEU'] } }, 'countries.values.0'],
    [
      'an upper-case language',
      { user_languages: { state: 'active', values: ['EN'] } },
      'user_languages.values.0',
    ],
    ['a city id 0', { cities: { state: 'active', values: [0] } }, 'cities.values.0'],
    ['a site id that is not an id', { sites: { state: 'active', values: ['abc'] } }, 'sites.values.0'],
    [
      'an unknown widget type',
      { widget_types: { state: 'active', values: ['popup'] } },
      'widget_types.values.0',
    ],
    [
      'a bad date',
      { dates: { state: 'active', values: [{ from: '2026-02-30', to: '2026-03-01' }] } },
      'dates.values.0.from',
    ],
    ['a bad start date', { start_date: '23.11.2026' }, 'start_date'],
    ['an unknown state', { countries: { state: 'only', values: [] } }, 'countries.state'],
    ['negative capping', { capping: { state: 'negative' } }, 'capping.state'],
    ['a cap of 0 impressions', { capping: { state: 'active', impressions: 0 } }, 'capping.impressions'],
    ['a period of 0 hours', { capping: { state: 'active', period_hours: 0 } }, 'capping.period_hours'],
    [
      'more than 7 weekdays',
      { weekdays: { state: 'active', values: [1, 2, 3, 4, 5, 6, 7, 1] } },
      'weekdays.values',
    ],
    ['an unknown dimension', { planets: { state: 'active', values: [] } }, ''],
    ['an unknown key in a dimension', { countries: { state: 'active', values: [], extra: 1 } }, 'countries'],
  ])('refuses %s', (_, input, path) => {
    expect(refused(input)).toContain(path);
  });
});
