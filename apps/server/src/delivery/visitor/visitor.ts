import { isBotUserAgent } from './bots.ts';
import { defaultGeoipDbPath, type GeoIp, openGeoIp, parseClientIp } from './geoip.ts';
import { browserLanguage } from './language.ts';
import { RecentCache } from './recent-cache.ts';
import {
  applyClientHints,
  type Browser,
  type Device,
  type OperatingSystem,
  parseUserAgent,
  UA_MAX_LENGTH,
} from './user-agent.ts';

/**
 * The visitor of one ad request (DESIGN.md "Visitor context"): where from (GeoIP), on what (User-Agent and
 * client hints), in which language (Accept-Language), and whether it is a bot. Unknown facts are null.
 */
export interface Visitor {
  /** The client address; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is given as its IPv4 address. */
  ip: string;
  country: string | null;
  cityId: number | null;
  /** The city's English name from a City database (statistics' `city`); null when unknown. */
  city: string | null;
  device: Device | null;
  os: OperatingSystem | null;
  browser: Browser | null;
  browserLanguage: string | null;
  /** A known bot or crawler, or no User-Agent at all: gets no ads and is never charged. */
  bot: boolean;
}

/** Request headers as Node and Fastify give them: lower-case names. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface VisitorReader {
  /** Reads one request: synchronous, no I/O (the database is in memory, results are cached). */
  read(request: { ip: string; headers: RequestHeaders }): Visitor;
  /** Which database answers GeoIP lookups: its path and `database_type`. */
  readonly geoip: { path: string; databaseType: string };
  close(): void;
}

interface DeviceInfo {
  device: Device | null;
  os: OperatingSystem | null;
  browser: Browser | null;
  bot: boolean;
}

const header = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Opens the GeoIP database (`geoipDb`, the `GEOIP_DB` setting, else the one shipped with the server) and
 * returns the reader delivery calls once per ad request.
 */
export async function createVisitorReader(
  options: { geoipDb?: string | undefined } = {},
): Promise<VisitorReader> {
  const path = options.geoipDb ?? defaultGeoipDbPath();
  const geo: GeoIp = await openGeoIp(path);
  // per (User-Agent, client hints): few distinct values carry most traffic
  const devices = new RecentCache<string, DeviceInfo>(2_000);
  const languages = new RecentCache<string, string | null>(1_000);

  const deviceOf = (headers: RequestHeaders): DeviceInfo => {
    const ua = (header(headers, 'user-agent') ?? '').slice(0, UA_MAX_LENGTH);
    const mobile = header(headers, 'sec-ch-ua-mobile');
    const platform = header(headers, 'sec-ch-ua-platform');
    const brands = header(headers, 'sec-ch-ua');
    const key =
      mobile === undefined && platform === undefined && brands === undefined
        ? ua
        : `${ua}\n${mobile ?? ''}\n${platform ?? ''}\n${(brands ?? '').slice(0, 300)}`;
    const hit = devices.get(key);
    if (hit) return hit;
    const bot = isBotUserAgent(ua);
    const info = applyClientHints(parseUserAgent(ua), { mobile, platform, brands });
    const found: DeviceInfo = Object.freeze({ ...info, bot });
    devices.set(key, found);
    return found;
  };

  const languageOf = (headers: RequestHeaders): string | null => {
    const value = header(headers, 'accept-language');
    if (!value) return null;
    const hit = languages.get(value);
    if (hit !== undefined) return hit;
    const found = browserLanguage(value);
    if (value.length <= 200) languages.set(value, found);
    return found;
  };

  return {
    geoip: { path, databaseType: geo.databaseType },
    read({ ip, headers }) {
      const { country, cityId, city } = geo.lookup(ip);
      const { device, os, browser, bot } = deviceOf(headers);
      const plain = /^::ffff:/i.test(ip) ? (parseClientIp(ip)?.toString() ?? ip) : ip;
      return {
        ip: plain,
        country,
        cityId,
        city,
        device,
        os,
        browser,
        browserLanguage: languageOf(headers),
        bot,
      };
    },
    close() {
      geo.close();
      devices.clear();
      languages.clear();
    },
  };
}
