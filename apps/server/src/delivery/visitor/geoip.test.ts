import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type GeoIp, ipv4Number, openGeoIp, parseClientIp } from './geoip.ts';
import { buildMmdb, cityTestDatabase, countryTestDatabase } from './test-mmdb.ts';

let dir: string;
let city: GeoIp;
let country: GeoIp;
let shipped: GeoIp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'geoip-'));
  writeFileSync(join(dir, 'city.mmdb'), cityTestDatabase());
  writeFileSync(join(dir, 'country.mmdb'), countryTestDatabase());
  city = await openGeoIp(join(dir, 'city.mmdb'));
  country = await openGeoIp(join(dir, 'country.mmdb'));
  shipped = await openGeoIp();
});

afterAll(() => {
  for (const g of [city, country, shipped]) g?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a City database', () => {
  test('gives the country, the GeoNames id and the English name of the city', () => {
    expect(city.databaseType).toBe('GeoIP2-City');
    expect(city.lookup('81.2.69.142')).toEqual({ country: 'GB', cityId: 2643743, city: 'London' });
    expect(city.lookup('216.160.83.58')).toEqual({ country: 'US', cityId: 5803556, city: 'Milton' });
    expect(city.lookup('89.160.20.120')).toEqual({ country: 'SE', cityId: 2694762, city: 'Linköping' });
  });

  test('reads IPv6 and IPv4-mapped IPv6 addresses', () => {
    expect(city.lookup('2a02:d280::1234')).toEqual({ country: 'CZ', cityId: 3067696, city: 'Prague' });
    expect(city.lookup('::ffff:81.2.69.142')).toEqual({ country: 'GB', cityId: 2643743, city: 'London' });
    expect(city.lookup('::FFFF:5102:458e')).toEqual({ country: 'GB', cityId: 2643743, city: 'London' }); // same, hex spelling
  });

  test('a network without a city has its country only; without a country, the registered one', () => {
    expect(city.lookup('2001:218:1::1')).toEqual({ country: 'JP', cityId: null, city: null });
    expect(city.lookup('2a02:cf40::1')).toEqual({ country: 'DE', cityId: null, city: null });
  });

  test('addresses the database does not know give nulls', () => {
    expect(city.lookup('81.2.69.144')).toEqual({ country: null, cityId: null, city: null });
    expect(city.lookup('1.1.1.1')).toEqual({ country: null, cityId: null, city: null });
    expect(city.lookup('2606:4700::1111')).toEqual({ country: null, cityId: null, city: null });
  });
});

describe('a Country database', () => {
  test('gives countries and no cities', () => {
    expect(country.databaseType).toBe('GeoIP2-Country');
    expect(country.lookup('81.2.69.170')).toEqual({ country: 'GB', cityId: null, city: null });
    expect(country.lookup('2001:218::1')).toEqual({ country: 'JP', cityId: null, city: null });
  });
});

test('private, loopback, link-local and malformed addresses give nulls', async () => {
  // a database that claims everything, so only the address check can say null
  const path = join(dir, 'everything.mmdb');
  writeFileSync(
    path,
    buildMmdb('Everything', {
      '0.0.0.0/1': { country_code: 'fr' },
      '128.0.0.0/1': { country_code: 'fr' },
      '2000::/3': { country_code: 'fr' },
      '8000::/1': { country_code: 'fr' },
    }),
  );
  const all = await openGeoIp(path);
  // ip-location-db's record shape, lower case
  expect(all.lookup('81.2.69.142')).toEqual({ country: 'FR', cityId: null, city: null });
  expect(all.lookup('2a00:1450::1')).toEqual({ country: 'FR', cityId: null, city: null });
  // just outside private ranges
  expect(all.lookup('172.32.0.1')).toEqual({ country: 'FR', cityId: null, city: null });
  expect(all.lookup('100.128.0.1')).toEqual({ country: 'FR', cityId: null, city: null });
  for (const ip of [
    '10.1.2.3',
    '192.168.0.1',
    '172.16.5.4',
    '127.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '172.31.255.255',
    '203.0.113.5',
    '224.0.0.1',
    '255.255.255.255',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '2001:db8::1',
    '::ffff:192.168.1.1',
    '',
    'unknown',
    '1.2.3',
    '010.1.2.3',
    '81.2.69.142.1',
    '1:2:3',
    'x'.repeat(200),
  ]) {
    expect(all.lookup(ip), ip).toEqual({ country: null, cityId: null, city: null });
  }
  all.close();
});

test('the shipped country database locates public IPv4 and IPv6 addresses', () => {
  expect(shipped.lookup('8.8.8.8')).toEqual({ country: 'US', cityId: null, city: null });
  expect(shipped.lookup('193.99.144.80')).toEqual({ country: 'DE', cityId: null, city: null });
  expect(shipped.lookup('::ffff:8.8.8.8')).toEqual({ country: 'US', cityId: null, city: null });
  expect(shipped.lookup('2001:4860:4860::8888')).toEqual({ country: 'US', cityId: null, city: null });
  expect(shipped.lookup('10.0.0.1')).toEqual({ country: null, cityId: null, city: null });
});

test('repeated lookups answer the same from the cache', () => {
  const first = city.lookup('216.160.83.56');
  expect(city.lookup('216.160.83.56')).toBe(first);
});

test('parseClientIp reads IPv4, IPv6 and IPv4-mapped IPv6, nothing else', () => {
  expect(parseClientIp('81.2.69.142')?.toString()).toBe('81.2.69.142');
  expect(parseClientIp('::ffff:81.2.69.142')?.toString()).toBe('81.2.69.142');
  expect(parseClientIp('2A02:D280::1')?.toString()).toBe('2a02:d280::1');
  expect(parseClientIp('0x51.2.69.142')).toBeNull();
  expect(parseClientIp('')).toBeNull();
});

test('the fast IPv4 reader agrees with ipaddr.js on what is an address', () => {
  for (const ip of ['0.0.0.0', '255.255.255.255', '81.2.69.142', '1.2.3.4']) {
    expect(ipv4Number(ip), ip).toBe(
      ipaddr.IPv4.parse(ip)
        .toByteArray()
        .reduce((a, b) => a * 256 + b, 0),
    );
  }
  for (const ip of [
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1..2.3',
    '1.2.3.',
    '.1.2.3',
    '1.2.3.4 ',
    'a.b.c.d',
  ]) {
    expect(ipv4Number(ip), ip).toBeNull();
  }
});

describe('a GEOIP_DB that cannot be used stops the start with a message naming it', () => {
  test('no file at the path: the configuration says so', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(() => loadConfig({ GEOIP_DB: join(dir, 'missing.mmdb') })).toThrow(
      /GEOIP_DB must name a MaxMind database file .* no file at/,
    );
    expect(loadConfig({ GEOIP_DB: join(dir, 'city.mmdb') }).geoipDb).toBe(join(dir, 'city.mmdb'));
    expect(loadConfig({ GEOIP_DB: '' }).geoipDb).toBeUndefined();
  });

  test('a file that is not a MaxMind database', async () => {
    const junk = join(dir, 'junk.mmdb');
    writeFileSync(junk, 'not a database');
    await expect(openGeoIp(junk)).rejects.toThrow(/GeoIP database .*junk\.mmdb is not a MaxMind database/);
  });
});
