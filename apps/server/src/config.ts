import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STATS_DELAY_HOURS, toMicros } from '@adp/contract';

/** The low-balance notifications' default threshold: 10 units of the platform currency. */
export const LOW_BALANCE_MICROS = 10_000_000n;

/** Start-up settings, read once from the environment (README lists each one). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Where the in-process store (no REDIS_URL) keeps its entries across a graceful restart. */
  storeFile: string | undefined;
  publicUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** API requests per minute per client; 0 turns request limits off (failed logins stay limited). */
  rateLimit: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  resetTokenTtl: number;
  loginMaxFailures: number;
  logLevel: string;
  webDist: string | undefined;
  trustProxy: boolean;
  /** Scheduled jobs (daily exchange rates, …) run unless JOBS=off (tests call the job functions directly). */
  jobs: boolean;
  /** The ECB daily reference rates XML, or a copy of it. */
  currencyRatesUrl: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Where the Stripe client sends API calls (tests point it at a local server); Stripe's own by default. */
  stripeApiBase: string | undefined;
  /**
   * The sandbox provider credits balances without real money: on only with PAYMENT_SANDBOX=on (tests, demos),
   * never by default, so a forgotten Stripe key cannot leave a free top-up button in production.
   */
  paymentSandbox: boolean;
  minPayout: number;
  /** Lets the content parser fetch loopback addresses: for tests that serve feeds locally, never in production. */
  outboundAllowLoopback: boolean;
  /** sellers.json `contact_email` (SELLERS_CONTACT_EMAIL; else ADMIN_EMAIL; else adops@<our domain>). */
  sellersContactEmail: string | undefined;
  /** The certification authority id (TAG-ID) of our ads.txt lines (ADS_TXT_CERT_ID), when we have one. */
  adsTxtCertId: string | undefined;
  facebookGraphUrl: string;
  /** An OpenAI-compatible API for the landing generator (with llmApiKey); the built-in template otherwise. */
  llmBaseUrl: string | undefined;
  llmApiKey: string | undefined;
  llmModel: string;
  /** A MaxMind-format .mmdb (Country or City) for delivery's GeoIP instead of the database shipped in npm. */
  geoipDb: string | undefined;
  /** Seconds a click or beacon token stays valid (CLICK_TTL). */
  clickTtl: number;
  /** Signing key of delivery tokens; generated once and kept in the database when unset. */
  deliverySecret: string | undefined;
  /** Milliseconds between writes of buffered impressions and views (DELIVERY_FLUSH_MS). */
  deliveryFlushMs: number;
  /** Days raw impression and view events and the exchange notices are kept (RAW_EVENTS_DAYS); 0: forever. */
  rawEventsDays: number;
  /**
   * Hours a self-registered user's statistics stay hidden from it (the 24-hour rule; STATS_DELAY_HOURS,
   * default 24); 0 shows them at once (the browser flows, demos).
   */
  statsDelayHours: number;
  /**
   * Low-balance notifications, micro-units: a campaign's balance (LOW_CAMPAIGN_BALANCE) and an advertiser
   * account's balance (LOW_ACCOUNT_BALANCE) below it is told to the owner once per fall; 0 turns it off.
   */
  lowCampaignBalance: bigint;
  lowAccountBalance: bigint;
  /**
   * The HTTP server's limits, milliseconds (every route, the fast paths answered before Fastify too): the
   * head of a request must arrive within `headersTimeout` (HTTP_HEADERS_TIMEOUT_MS) and the whole request
   * within `requestTimeout` (HTTP_REQUEST_TIMEOUT_MS, 0: no limit), else 408 and the socket closes; an idle
   * keep-alive socket closes after `keepAliveTimeout` (HTTP_KEEP_ALIVE_TIMEOUT_MS).
   */
  http: { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number };
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** A non-negative amount in currency units (`10`, `2.5`) as micro-units. */
function money(value: string | undefined, fallback: bigint, name: string): bigint {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+(\.\d{1,6})?$/.test(value.trim()))
    throw new Error(`${name} must be a non-negative amount such as 10 or 2.5, got "${value}"`);
  return toMicros(value.trim());
}

/** A positive amount in currency units (`10`, `2.5`); anything else stops the start. */
function positiveAmount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+(\.\d{1,6})?$/.test(value.trim()) || Number(value) <= 0)
    throw new Error(`${name} must be a positive amount such as 10 or 2.5, got "${value}"`);
  return Number(value);
}

/** `on` or `off` (unset is off); anything else stops the start rather than guessing. */
function onOff(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'off') return false;
  if (value === 'on') return true;
  throw new Error(`${name} must be "on" or "off", got "${value}"`);
}

/**
 * The HTTP server's timeouts. Fastify would keep an idle keep-alive socket 72 s (longer than load balancers'
 * usual 60 s idle timeout, so the balancer closes first and never sends on a socket we are closing) and
 * advises a request limit such as 120 s when nothing in front enforces one; a request's head (one packet
 * from any real client) gets 10 s, so a client trickling it cannot hold a socket for Node's 60 s.
 */
function httpTimeouts(env: NodeJS.ProcessEnv): Config['http'] {
  const headersTimeout = int(env.HTTP_HEADERS_TIMEOUT_MS, 10_000, 'HTTP_HEADERS_TIMEOUT_MS');
  const requestTimeout = int(env.HTTP_REQUEST_TIMEOUT_MS, 120_000, 'HTTP_REQUEST_TIMEOUT_MS');
  const keepAliveTimeout = int(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 72_000, 'HTTP_KEEP_ALIVE_TIMEOUT_MS');
  if (headersTimeout === 0) throw new Error('HTTP_HEADERS_TIMEOUT_MS must be positive');
  // Node refuses a head limit above the whole request's
  if (requestTimeout !== 0 && headersTimeout > requestTimeout)
    throw new Error(
      `HTTP_HEADERS_TIMEOUT_MS (${headersTimeout}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeout})`,
    );
  return { headersTimeout, requestTimeout, keepAliveTimeout };
}

/** GEOIP_DB: a file that exists (else the start would fail later with a bare ENOENT); empty for the shipped one. */
function geoipDb(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!existsSync(value) || !statSync(value).isFile())
    throw new Error(`GEOIP_DB must name a MaxMind database file (.mmdb), but there is no file at "${value}"`);
  return value;
}

/** PUBLIC_URL: an absolute http(s) address (links, tokens' URLs, sellers.json and the CSP are made of it). */
function publicUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(
      `PUBLIC_URL must be an absolute http(s) address such as https://ads.example.com, got "${value}"`,
    );
  return value.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080, 'PORT');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    // the in-process store's entries across a graceful restart (without Redis); '' keeps them in memory only
    storeFile:
      env.STORE_FILE === ''
        ? undefined
        : resolve(env.STORE_FILE ?? join(env.DATA_DIR ?? './data', 'store.jsonl')),
    publicUrl: publicUrl(env.PUBLIC_URL || `http://localhost:${port}`),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    rateLimit: int(env.RATE_LIMIT, 600, 'RATE_LIMIT'),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'AdPlatform <no-reply@localhost>',
    jwtSecret: env.JWT_SECRET || undefined,
    accessTokenTtl: int(env.ACCESS_TOKEN_TTL, 900, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtl: int(env.REFRESH_TOKEN_TTL, 30 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    resetTokenTtl: int(env.RESET_TOKEN_TTL, 3600, 'RESET_TOKEN_TTL'),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 10, 'LOGIN_MAX_FAILURES'),
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: env.WEB_DIST || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    jobs: env.JOBS !== 'off',
    currencyRatesUrl:
      env.CURRENCY_RATES_URL || 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiBase: env.STRIPE_API_BASE || undefined,
    paymentSandbox: onOff(env.PAYMENT_SANDBOX, 'PAYMENT_SANDBOX'),
    minPayout: positiveAmount(env.MIN_PAYOUT, 10, 'MIN_PAYOUT'),
    outboundAllowLoopback: env.OUTBOUND_ALLOW_LOOPBACK === '1',
    sellersContactEmail: env.SELLERS_CONTACT_EMAIL || env.ADMIN_EMAIL || undefined,
    adsTxtCertId: env.ADS_TXT_CERT_ID?.trim() || undefined,
    facebookGraphUrl: env.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v21.0',
    llmBaseUrl: env.LLM_BASE_URL || undefined,
    llmApiKey: env.LLM_API_KEY || undefined,
    llmModel: env.LLM_MODEL || 'gpt-4o-mini',
    geoipDb: geoipDb(env.GEOIP_DB),
    clickTtl: int(env.CLICK_TTL, 3600, 'CLICK_TTL'),
    deliverySecret: env.DELIVERY_SECRET || undefined,
    deliveryFlushMs: Math.max(int(env.DELIVERY_FLUSH_MS, 1000, 'DELIVERY_FLUSH_MS'), 10),
    rawEventsDays: int(env.RAW_EVENTS_DAYS, 90, 'RAW_EVENTS_DAYS'),
    statsDelayHours: int(env.STATS_DELAY_HOURS, STATS_DELAY_HOURS, 'STATS_DELAY_HOURS'),
    lowCampaignBalance: money(env.LOW_CAMPAIGN_BALANCE, LOW_BALANCE_MICROS, 'LOW_CAMPAIGN_BALANCE'),
    lowAccountBalance: money(env.LOW_ACCOUNT_BALANCE, LOW_BALANCE_MICROS, 'LOW_ACCOUNT_BALANCE'),
    http: httpTimeouts(env),
  };
}
