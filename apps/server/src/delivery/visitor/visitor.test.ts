import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../config.ts';
import { cityTestDatabase } from './test-mmdb.ts';
import { userAgents } from './test-user-agents.ts';
import { createVisitorReader, type VisitorReader } from './visitor.ts';

const chromeWindowsHeaders = {
  'user-agent': userAgents.chromeWindows,
  'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Windows"',
  'accept-language': 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7',
  accept: '*/*',
  referer: 'https://news.example.de/article',
};

let dir: string;
let shipped: VisitorReader;
let city: VisitorReader;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'visitor-'));
  writeFileSync(join(dir, 'GeoIP2-City-Test.mmdb'), cityTestDatabase());
  shipped = await createVisitorReader();
  // GEOIP_DB as the server reads it: environment → config → reader
  city = await createVisitorReader({
    geoipDb: loadConfig({ GEOIP_DB: join(dir, 'GeoIP2-City-Test.mmdb') }).geoipDb,
  });
});

afterAll(() => {
  shipped?.close();
  city?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('without GEOIP_DB the shipped country database answers; countries, no cities', () => {
  expect(loadConfig({}).geoipDb).toBeUndefined();
  expect(shipped.geoip.path).toMatch(/geo-whois-asn-country\.mmdb$/);
  expect(shipped.read({ ip: '8.8.8.8', headers: chromeWindowsHeaders })).toEqual({
    ip: '8.8.8.8',
    country: 'US',
    cityId: null,
    city: null,
    device: 'desktop',
    os: 'windows',
    browser: 'chrome',
    browserLanguage: 'de',
    bot: false,
  });
});

test('GEOIP_DB replaces it: a City database gives the GeoNames city', () => {
  expect(city.geoip.databaseType).toBe('GeoIP2-City');
  expect(city.read({ ip: '81.2.69.142', headers: chromeWindowsHeaders })).toMatchObject({
    country: 'GB',
    cityId: 2643743,
    city: 'London',
  });
  // the test database does not know Google's address
  expect(city.read({ ip: '8.8.8.8', headers: chromeWindowsHeaders })).toMatchObject({
    country: null,
    cityId: null,
  });
});

test('an IPv4-mapped IPv6 client (dual-stack socket) is read and reported as its IPv4 address', () => {
  const v = city.read({ ip: '::ffff:216.160.83.56', headers: chromeWindowsHeaders });
  expect(v).toMatchObject({ ip: '216.160.83.56', country: 'US', cityId: 5803556 });
  expect(city.read({ ip: '2a02:d280::7', headers: chromeWindowsHeaders })).toMatchObject({
    ip: '2a02:d280::7',
    country: 'CZ',
    cityId: 3067696,
  });
});

test('private and unknown addresses give no place', () => {
  for (const ip of ['127.0.0.1', '::1', '192.168.1.20', 'fd12::1', 'not-an-ip']) {
    expect(shipped.read({ ip, headers: chromeWindowsHeaders }), ip).toMatchObject({
      country: null,
      cityId: null,
    });
  }
});

describe('devices and bots from the headers', () => {
  const read = (headers: Record<string, string | string[] | undefined>) =>
    shipped.read({ ip: '193.99.144.80', headers });

  test('an iPhone with Safari (no client hints)', () => {
    expect(read({ 'user-agent': userAgents.safariIphone, 'accept-language': 'fr-FR' })).toMatchObject({
      country: 'DE',
      device: 'mobile',
      os: 'ios',
      browser: 'safari',
      browserLanguage: 'fr',
      bot: false,
    });
  });

  test('client hints win over the UA string: Android Chrome asking for the desktop site', () => {
    const desktopSite = {
      'user-agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
      'sec-ch-ua-mobile': '?1',
      'sec-ch-ua-platform': '"Android"',
    };
    expect(read(desktopSite)).toMatchObject({ device: 'mobile', os: 'android', browser: 'chrome' });
    // the same UA string without hints is what it says
    expect(read({ 'user-agent': desktopSite['user-agent'] })).toMatchObject({
      device: 'desktop',
      os: 'linux',
      browser: 'chrome',
    });
  });

  test('Edge with its brand in Sec-CH-UA', () => {
    expect(
      read({
        'user-agent': userAgents.edge,
        'sec-ch-ua': '"Chromium";v="124", "Microsoft Edge";v="124", "Not-A.Brand";v="99"',
        'sec-ch-ua-mobile': '?0',
        'sec-ch-ua-platform': '"Windows"',
      }),
    ).toMatchObject({ device: 'desktop', os: 'windows', browser: 'edge', bot: false });
  });

  test('Googlebot, curl and a request without User-Agent are bots', () => {
    expect(read({ 'user-agent': userAgents.googlebot }).bot).toBe(true);
    expect(read({ 'user-agent': userAgents.curl }).bot).toBe(true);
    expect(read({ 'user-agent': '' }).bot).toBe(true);
    expect(read({})).toMatchObject({
      bot: true,
      device: null,
      os: null,
      browser: null,
      browserLanguage: null,
    });
  });

  test('repeated header values (arrays) use the first', () => {
    expect(
      read({ 'user-agent': userAgents.firefoxLinux, 'accept-language': ['uk,ru;q=0.8', 'en'] }),
    ).toMatchObject({ device: 'desktop', os: 'linux', browser: 'firefox', browserLanguage: 'uk' });
  });

  test('the same request read twice gives the same visitor (cached parse)', () => {
    const headers = { 'user-agent': userAgents.ipad, 'accept-language': 'pt-BR,pt;q=0.9' };
    const first = read(headers);
    expect(read(headers)).toEqual(first);
    expect(first).toMatchObject({ device: 'tablet', os: 'ios', browser: 'safari', browserLanguage: 'pt' });
  });
});

test('a missing GEOIP_DB file stops the start with the error', async () => {
  await expect(createVisitorReader({ geoipDb: join(dir, 'missing.mmdb') })).rejects.toThrow(/ENOENT/);
});
