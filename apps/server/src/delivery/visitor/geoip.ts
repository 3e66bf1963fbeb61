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
  /** The city's English name (MaxMind `city.names.en`); null unless the database has it. */
  city: string | null;
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
  city?: { geoname_id?: unknown; names?: { en?: unknown } };
  country_code?: unknown;
}

const UNKNOWN: GeoLocation = Object.freeze({ country: null, cityId: null, city: null });

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

/** A dotted-quad IPv4 address as a number (no leading zeros, each part 0–255); null for anything else. */
export function ipv4Number(ip: string): number | null {
  if (ip.length < 7 || ip.length > 15) return null;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return null;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return null; // a leading zero: '010' is octal to some parsers
      part = part * 10 + (c - 48);
      if (part > 255) return null;
      digits++;
    } else return null;
  }
  if (dots !== 3 || digits === 0) return null;
  return value * 256 + part;
}

/** [first address, prefix length] of the IPv4 ranges no database locates (RFC 6890 special-purpose). */
const specialIpv4: [number, number][] = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
).map(([address, bits]) => [ipv4Number(address) as number, bits]);

function publicIpv4(n: number): boolean {
  for (const [start, bits] of specialIpv4) {
    if (Math.floor(n / 2 ** (32 - bits)) === Math.floor(start / 2 ** (32 - bits))) return false;
  }
  return true;
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

/** The city's English name, at most 80 characters (a key of the rollups, carried in tokens); null when absent. */
function cityNameOf(record: GeoRecord): string | null {
  const name = record.city?.names?.en;
  return typeof name === 'string' && name.trim() !== '' ? name.trim().slice(0, 80) : null;
}

/**
 * Opens a database (the shipped one without a path) and keeps it in memory. Lookups are cached per IP
 * string in a small bounded cache: benchmarks and tests send many requests from few addresses, real
 * traffic from many, so the cache stays small and a miss costs only a tree walk of the in-memory file.
 */
export async function openGeoIp(path: string = defaultGeoipDbPath(), cacheSize = 10_000): Promise<GeoIp> {
  const buffer = await readFile(path);
  let reader: Reader<never> | null;
  try {
    reader = new Reader<never>(buffer);
  } catch (err) {
    throw new Error(`GeoIP database ${path} is not a MaxMind database (${(err as Error).message})`);
  }
  const databaseType = String(reader.metadata.databaseType ?? '');
  const cache = new RecentCache<string, GeoLocation>(cacheSize);

  const locate = (ip: string): GeoLocation => {
    if (!reader) return UNKNOWN;
    let query: string;
    const v4 = ipv4Number(ip);
    if (v4 !== null) {
      // the common case, without ipaddr.js's parse, range table walk and toString
      if (!publicIpv4(v4)) return UNKNOWN;
      query = ip;
    } else {
      const address = parseClientIp(ip);
      if (!address || unlocatable.has(address.range())) return UNKNOWN;
      query = address.toString();
    }
    let record: GeoRecord | null;
    try {
      record = reader.get(query) as GeoRecord | null;
    } catch {
      return UNKNOWN; // e.g. an IPv6 address asked of an IPv4-only database
    }
    if (!record) return UNKNOWN;
    const country = countryOf(record);
    const cityId = cityOf(record);
    const city = cityNameOf(record);
    return country === null && cityId === null && city === null
      ? UNKNOWN
      : Object.freeze({ country, cityId, city });
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
