import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import { Reader } from 'maxmind';
import { RecentCache } from './recent-cache.ts';

/**
 * GeoIP: country and city of an IP address from a MaxMind-format database (.mmdb), read once into memory
 * with `maxmind`, so a lookup does no I/O. The default database is the country database of the
 * `@ip-location-db/geo-whois-asn-country-mmdb` package (geofeeds, RIR whois and ASN data merged; the
 * package is CC0, the RIR data in it CC BY 4.0 by the NRO, credited in the README). Its sibling
 * `iptoasn-country-mmdb` (PDDL) was measured first and rejected: it places whole networks by the country
 * their AS is registered in (Yandex's Russian ranges as Serbia). `GEOIP_DB` names any other MaxMind-format
 * Country or City database (GeoIP2/GeoLite2 City, DB-IP, ip-location-db files) to use instead.
 */

export interface GeoLocation {
  /** ISO 3166-1 alpha-2, upper case; null when the database does not know the address. */
  country: string | null;
  /** GeoNames id of the city (MaxMind `city.geoname_id`); null unless the database has cities. */
  cityId: number | null;
}

export interface GeoIp {
  lookup(ip: string): GeoLocation;
  /** `database_type` of the database's metadata, e.g. "GeoIP2-City". */
  readonly databaseType: string;
  close(): void;
}

/** The record fields we read: MaxMind Country/City databases, and ip-location-db's `country_code`. */
interface GeoRecord {
  country?: { iso_code?: unknown };
  registered_country?: { iso_code?: unknown };
  city?: { geoname_id?: unknown };
  country_code?: unknown;
}

const UNKNOWN: GeoLocation = Object.freeze({ country: null, cityId: null });

/** Address ranges no database locates (private, loopback, link-local, documentation, …): answered without a lookup. */
const unlocatable = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'reserved',
  'uniqueLocal',
  'benchmarking',
  'as112',
  'as112v6',
  'amt',
  'orchid2',
  'deprecated',
  'discard',
]);

/** The path of the database shipped with the server (IPv4 and IPv6 in one file). */
export function defaultGeoipDbPath(): string {
  return createRequire(import.meta.url).resolve(
    '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
  );
}

/**
 * Parses an address as a client sends it: IPv4 (dotted quad only: '010.1' style spellings are not
 * addresses here), IPv6, or IPv4-mapped IPv6 (`::ffff:1.2.3.4`, as a dual-stack socket reports IPv4 peers),
 * which becomes the IPv4 address. Null for anything else.
 */
export function parseClientIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ip.includes(':')) {
    if (!ipaddr.IPv6.isValid(ip)) return null;
    const v6 = ipaddr.IPv6.parse(ip);
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(ip) ? ipaddr.IPv4.parse(ip) : null;
}

function countryOf(record: GeoRecord): string | null {
  const code = record.country?.iso_code ?? record.country_code ?? record.registered_country?.iso_code;
  if (typeof code !== 'string') return null;
  const upper = code.toUpperCase();
  // ZZ is "unknown or unspecified" in several free databases
  return /^[A-Z]{2}$/.test(upper) && upper !== 'ZZ' ? upper : null;
}

function cityOf(record: GeoRecord): number | null {
  const id = record.city?.geoname_id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Opens a database (the shipped one without a path) and keeps it in memory. Lookups are cached per IP
 * string in a small bounded cache: benchmarks and tests send many requests from few addresses, real
 * traffic from many, so the cache stays small and a miss costs only a tree walk of the in-memory file.
 */
export async function openGeoIp(path: string = defaultGeoipDbPath(), cacheSize = 10_000): Promise<GeoIp> {
  const buffer = await readFile(path);
  let reader: Reader<never> | null = new Reader<never>(buffer);
  const databaseType = String(reader.metadata.databaseType ?? '');
  const cache = new RecentCache<string, GeoLocation>(cacheSize);

  const locate = (ip: string): GeoLocation => {
    const address = parseClientIp(ip);
    if (!address || !reader || unlocatable.has(address.range())) return UNKNOWN;
    let record: GeoRecord | null;
    try {
      record = reader.get(address.toString()) as GeoRecord | null;
    } catch {
      return UNKNOWN; // e.g. an IPv6 address asked of an IPv4-only database
    }
    if (!record) return UNKNOWN;
    const country = countryOf(record);
    const cityId = cityOf(record);
    return country === null && cityId === null ? UNKNOWN : Object.freeze({ country, cityId });
  };

  return {
    databaseType,
    lookup(ip) {
      const hit = cache.get(ip);
      if (hit) return hit;
      const found = locate(ip);
      // an over-long string is no address: answer it, but keep it out of the cache
      if (ip.length <= 64) cache.set(ip, found);
      return found;
    },
    close() {
      reader = null;
      cache.clear();
    },
  };
}
