import { XMLParser } from 'fast-xml-parser';
import { divideDecimals, parseDecimal } from './rates.ts';

/** Daily rates: `rates` are decimal strings, units of each currency per 1 USD. */
export interface RatesSnapshot {
  date: string;
  rates: Record<string, string>;
}

/** Where automatic rates come from; the ECB is the default, another feed is a new implementation. */
export interface RateSource {
  name: string;
  fetchRates(): Promise<RatesSnapshot>;
}

export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

const codePattern = /^[A-Z]{3}$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Reads the ECB's eurofxref XML (`gesmes:Envelope > Cube > Cube[time] > Cube[currency, rate]`):
 * rates per 1 EUR, as the file states them.
 */
export function parseEcbXml(xml: string): { date: string; rates: Record<string, string> } {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseAttributeValue: false,
    processEntities: false,
  });
  const doc = parser.parse(xml) as {
    Envelope?: { Cube?: { Cube?: unknown } };
  };
  type DayCube = { time?: string; Cube?: unknown };
  const day = asArray(doc.Envelope?.Cube?.Cube as DayCube | DayCube[] | undefined)[0];
  const date = day?.time;
  if (!date || !datePattern.test(date)) throw new Error('ECB rates: no date in the feed');
  const rates: Record<string, string> = {};
  for (const cube of asArray(day.Cube as { currency?: string; rate?: string }[] | undefined)) {
    const code = cube.currency;
    const rate = cube.rate?.trim();
    if (!code || !codePattern.test(code) || !rate) continue;
    try {
      if (parseDecimal(rate).int === 0n) continue;
    } catch {
      continue;
    }
    rates[code] = rate;
  }
  if (Object.keys(rates).length === 0) throw new Error('ECB rates: no rates in the feed');
  return { date, rates };
}

/** Re-bases EUR rates on USD, exactly: X per USD = (X per EUR) / (USD per EUR); EUR per USD = 1 / (USD per EUR). */
export function eurToUsdBase(eurRates: Record<string, string>): Record<string, string> {
  const usdPerEur = eurRates.USD;
  if (!usdPerEur) throw new Error('ECB rates: the feed has no USD rate');
  const out: Record<string, string> = { USD: '1', EUR: divideDecimals('1', usdPerEur) };
  for (const [code, rate] of Object.entries(eurRates)) {
    if (code === 'USD' || code === 'EUR') continue;
    out[code] = divideDecimals(rate, usdPerEur);
  }
  return out;
}

/** GET with a timeout and a cap on the body size, so a slow or huge answer cannot hold the job. */
export async function fetchText(url: string, opts: { timeoutMs: number; maxBytes: number }): Promise<string> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(opts.timeoutMs),
    headers: { accept: 'application/xml, text/xml' },
    redirect: 'follow',
  });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await res.body?.cancel();
    throw new Error(`GET ${url}: answer larger than ${opts.maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > opts.maxBytes) {
      await reader.cancel();
      throw new Error(`GET ${url}: answer larger than ${opts.maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The European Central Bank's daily reference rates (about 30 currencies, published on TARGET days). */
export function ecbRateSource(
  url = ECB_DAILY_URL,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): RateSource {
  return {
    name: 'ecb',
    async fetchRates() {
      const xml = await fetchText(url, {
        timeoutMs: opts.timeoutMs ?? 10_000,
        maxBytes: opts.maxBytes ?? 1024 * 1024,
      });
      const { date, rates } = parseEcbXml(xml);
      return { date, rates: eurToUsdBase(rates) };
    },
  };
}
