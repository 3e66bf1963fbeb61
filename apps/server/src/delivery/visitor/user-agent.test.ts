import { describe, expect, test } from 'vitest';
import { isBotUserAgent } from './bots.ts';
import { browserLanguage } from './language.ts';
import { userAgents } from './test-user-agents.ts';
import { applyClientHints, browserFromBrands, parseUserAgent } from './user-agent.ts';

describe('User-Agent strings map onto the targeting enums', () => {
  test.each([
    ['chromeWindows', 'desktop', 'windows', 'chrome'],
    ['safariIphone', 'mobile', 'ios', 'safari'],
    ['ipad', 'tablet', 'ios', 'safari'],
    ['androidTablet', 'tablet', 'android', 'chrome'],
    ['androidPhone', 'mobile', 'android', 'chrome'],
    ['samsungTv', 'tv', 'other', 'samsung'],
    ['firefoxLinux', 'desktop', 'linux', 'firefox'],
    ['firefoxUbuntu', 'desktop', 'linux', 'firefox'],
    ['edge', 'desktop', 'windows', 'edge'],
    ['safariMac', 'desktop', 'macos', 'safari'],
    ['yandex', 'desktop', 'windows', 'yandex'],
    ['opera', 'desktop', 'windows', 'opera'],
    ['samsungPhone', 'mobile', 'android', 'samsung'],
    ['chromebook', 'desktop', 'chromeos', 'chrome'],
    ['chromeIphone', 'mobile', 'ios', 'chrome'],
  ] as const)('%s: %s, %s, %s', (name, device, os, browser) => {
    expect(parseUserAgent(userAgents[name])).toEqual({ device, os, browser });
    expect(isBotUserAgent(userAgents[name])).toBe(false);
  });

  test('a string no parser reads says nothing', () => {
    expect(parseUserAgent('hello')).toEqual({ device: null, os: null, browser: null });
  });
});

describe('bots', () => {
  test.each(['googlebot', 'googlebotSmartphone', 'bingbot', 'curl'] as const)('%s is a bot', (name) => {
    expect(isBotUserAgent(userAgents[name])).toBe(true);
  });

  test('a missing, empty or blank User-Agent is a bot', () => {
    expect(isBotUserAgent(undefined)).toBe(true);
    expect(isBotUserAgent('')).toBe(true);
    expect(isBotUserAgent('   ')).toBe(true);
  });
});

describe('client hints win over the UA string', () => {
  const desktopChrome = parseUserAgent(userAgents.chromeWindows);

  test('Sec-CH-UA-Mobile ?1 is a phone, whatever the (requested desktop site) UA string says', () => {
    expect(applyClientHints(desktopChrome, { mobile: '?1', platform: '"Android"' })).toEqual({
      device: 'mobile',
      os: 'android',
      browser: 'chrome',
    });
  });

  test('Android with ?0 is a tablet; a desktop platform with ?0 is a desktop', () => {
    const phone = parseUserAgent(userAgents.androidPhone);
    expect(applyClientHints(phone, { mobile: '?0', platform: '"Android"' }).device).toBe('tablet');
    expect(applyClientHints(phone, { mobile: '?0', platform: '"macOS"' })).toEqual({
      device: 'desktop',
      os: 'macos',
      browser: 'chrome',
    });
  });

  test('a TV stays a TV with ?0', () => {
    const tv = parseUserAgent(userAgents.samsungTv);
    expect(applyClientHints(tv, { mobile: '?0' }).device).toBe('tv');
  });

  test('Sec-CH-UA-Platform names the OS (frozen UA strings say Windows 10 or Linux for everyone)', () => {
    expect(applyClientHints(desktopChrome, { platform: '"Linux"' }).os).toBe('linux');
    expect(applyClientHints(desktopChrome, { platform: '"Chrome OS"' }).os).toBe('chromeos');
    expect(applyClientHints(desktopChrome, { platform: '"Fuchsia"' }).os).toBe('other');
    expect(applyClientHints(desktopChrome, { platform: '"Unknown"' }).os).toBe('windows');
  });

  test('Sec-CH-UA names the browser; Chromium and GREASE brands alone keep the UA string', () => {
    const hints = (brands: string) => applyClientHints(desktopChrome, { brands }).browser;
    expect(hints('"Chromium";v="124", "Microsoft Edge";v="124", "Not-A.Brand";v="99"')).toBe('edge');
    expect(hints('"Not/A)Brand";v="8", "Chromium";v="126", "Opera";v="112"')).toBe('opera');
    expect(hints('"Chromium";v="122", "Not(A:Brand";v="24", "YaBrowser";v="24.4"')).toBe('yandex');
    expect(hints('"Brave";v="124", "Chromium";v="124", "Not-A.Brand";v="99"')).toBe('other');
    expect(hints('"Chromium";v="124", "Not-A.Brand";v="99"')).toBe('chrome');
    expect(browserFromBrands('"Google Chrome";v="124", "Chromium";v="124"')).toBe('chrome');
    expect(browserFromBrands('"Samsung Internet";v="24.0", "Chromium";v="117"')).toBe('samsung');
  });
});

describe('Accept-Language gives the primary subtag of the highest weight', () => {
  test.each([
    ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
    ['en-US;q=0.8, DE-ch, fr;q=0.9', 'de'],
    ['fr;q=0.5, ru;q=0.9, uk;q=0.9', 'ru'],
    ['pt-BR', 'pt'],
    ['*;q=1, es;q=0.2', 'es'],
    ['en;q=0, it;q=0.1', 'it'],
    ['fil, uk;q=0.5', 'uk'],
    ['en;q=abc, de;q=0.3', 'de'],
    ['en;q=2, de;q=0.3', 'de'],
    ['  ', null],
    ['*', null],
    ['', null],
  ])('%j → %s', (header, language) => {
    expect(browserLanguage(header)).toBe(language);
  });

  test('missing header', () => {
    expect(browserLanguage(undefined)).toBeNull();
  });
});
