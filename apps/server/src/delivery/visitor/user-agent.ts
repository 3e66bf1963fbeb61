import type { browsers, devices, operatingSystems } from '@adp/contract';
import { UAParser } from 'ua-parser-js';

/**
 * Device, OS and browser of a visitor, on the contract's targeting enums, from the User-Agent string
 * (ua-parser-js 1.x, MIT; 2.x is AGPL and must not be used) and the User-Agent client hints, which win
 * when a browser sends them (Chromium browsers send Sec-CH-UA, Sec-CH-UA-Mobile and Sec-CH-UA-Platform by
 * default, and freeze parts of the UA string).
 */

export type Device = (typeof devices)[number];
export type OperatingSystem = (typeof operatingSystems)[number];
export type Browser = (typeof browsers)[number];

export interface UserAgentInfo {
  device: Device | null;
  os: OperatingSystem | null;
  browser: Browser | null;
}

export interface ClientHints {
  /** Sec-CH-UA-Mobile: "?1" or "?0". */
  mobile?: string | undefined;
  /** Sec-CH-UA-Platform, e.g. "Windows" (quoted). */
  platform?: string | undefined;
  /** Sec-CH-UA, e.g. `"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"`. */
  brands?: string | undefined;
}

/** ua-parser-js caps the string it reads at 500 characters; so do we, before it is used as a cache key. */
export const UA_MAX_LENGTH = 500;

const linuxNames = new Set([
  'linux',
  'ubuntu',
  'debian',
  'fedora',
  'mint',
  'arch',
  'gentoo',
  'centos',
  'redhat',
  'suse',
  'opensuse',
  'slackware',
  'mandriva',
  'kubuntu',
  'xubuntu',
  'lubuntu',
  'deepin',
  'elementary os',
  'manjaro',
  'linpus',
  'zenwalk',
  'mageia',
  'pclinuxos',
  'sabayon',
  'knoppix',
  'vectorlinux',
  'gnu',
]);

/** An OS name from ua-parser-js or Sec-CH-UA-Platform, on the contract's list. */
export function osFromName(name: string | undefined): OperatingSystem | null {
  if (!name) return null;
  const n = name.toLowerCase();
  if (n === 'windows' || n === 'windows phone' || n === 'windows mobile') return 'windows';
  if (n === 'mac os' || n === 'macos' || n === 'mac os x' || n === 'macintosh') return 'macos';
  if (n === 'ios' || n === 'ipados') return 'ios';
  if (n === 'android' || n === 'android-x86') return 'android';
  if (n === 'chromium os' || n === 'chrome os' || n === 'chromeos') return 'chromeos';
  if (linuxNames.has(n)) return 'linux';
  return 'other';
}

const browserNames: Record<string, Browser> = {
  chrome: 'chrome',
  'chrome headless': 'chrome',
  'chrome webview': 'chrome',
  chromium: 'chrome',
  'mobile chrome': 'chrome',
  firefox: 'firefox',
  'mobile firefox': 'firefox',
  'firefox focus': 'firefox',
  'firefox reality': 'firefox',
  safari: 'safari',
  'mobile safari': 'safari',
  edge: 'edge',
  'edge webview': 'edge',
  'edge webview2': 'edge',
  opera: 'opera',
  'opera mini': 'opera',
  'opera mobi': 'opera',
  'opera touch': 'opera',
  'opera gx': 'opera',
  'opera coast': 'opera',
  'opera tablet': 'opera',
  yandex: 'yandex',
  'samsung browser': 'samsung',
  'samsung internet': 'samsung',
};

/** A browser name from ua-parser-js, on the contract's list. */
export function browserFromName(name: string | undefined): Browser | null {
  if (!name) return null;
  return browserNames[name.toLowerCase()] ?? 'other';
}

/** Reads the User-Agent string alone. */
export function parseUserAgent(ua: string): UserAgentInfo {
  const r = new UAParser(ua.slice(0, UA_MAX_LENGTH)).getResult();
  const os = osFromName(r.os.name);
  const browser = browserFromName(r.browser.name);
  let device: Device | null;
  switch (r.device.type) {
    case 'mobile':
    case 'wearable':
      device = 'mobile';
      break;
    case 'tablet':
      device = 'tablet';
      break;
    case 'smarttv':
    case 'console':
      device = 'tv';
      break;
    case undefined:
      // ua-parser-js names no type for desktops; a string it cannot read at all says nothing
      device = os !== null || browser !== null ? 'desktop' : null;
      break;
    default:
      device = null; // embedded (cars, e-readers…): none of ours
  }
  return { device, os, browser };
}

/** A structured-header string (`"Windows"`) without its quotes. */
const unquote = (s: string) => s.trim().replace(/^"(.*)"$/, '$1');

/** GREASE brands ("Not A;Brand", "Not/A)Brand", …) that Chromium adds so servers read the list properly. */
const grease = /not.?a.?brand/i;

const brandNames: Record<string, Browser | undefined> = {
  'google chrome': 'chrome',
  'microsoft edge': 'edge',
  opera: 'opera',
  'opera gx': 'opera',
  yandex: 'yandex',
  yabrowser: 'yandex',
  'samsung internet': 'samsung',
};

/**
 * The browser named by Sec-CH-UA: a known brand; another brand than Chromium (Brave, Vivaldi…) is "other";
 * only Chromium (and GREASE) says nothing beyond the UA string, so it gives null.
 */
export function browserFromBrands(brands: string): Browser | null {
  let other = false;
  for (const part of brands.split(',')) {
    const name = unquote(part.split(';')[0] ?? '').toLowerCase();
    if (!name || grease.test(name) || name === 'chromium') continue;
    const known = brandNames[name];
    if (known) return known;
    other = true;
  }
  return other ? 'other' : null;
}

/** The UA string's answer, corrected by the client hints a browser sent. */
export function applyClientHints(info: UserAgentInfo, hints: ClientHints): UserAgentInfo {
  let { device, os, browser } = info;
  if (hints.platform !== undefined) {
    const platform = unquote(hints.platform);
    if (platform && platform.toLowerCase() !== 'unknown') os = osFromName(platform);
  }
  if (hints.brands !== undefined) browser = browserFromBrands(hints.brands) ?? browser;
  const mobile = hints.mobile?.trim();
  if (mobile === '?1') device = 'mobile';
  else if (mobile === '?0') {
    // not a phone: a TV or tablet the UA string recognised stays one; Android without "mobile" is a tablet
    if (device !== 'tv' && device !== 'tablet') device = os === 'android' ? 'tablet' : 'desktop';
  }
  return { device, os, browser };
}
