import { type CurrencyUpdate, platformCurrency } from '@adp/contract';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { jobOutcome } from '../../lib/job-outcome.ts';
import type { JobRunner } from '../../lib/jobs.ts';
import type { CurrenciesRepository, CurrencySeed } from './currencies.repository.ts';
import type { RateSource } from './rate-sources.ts';
import { type RatesCache, rateFromNumber } from './rates.ts';

/** Seeded at start; rates stay unknown (null) until the daily update or an admin sets them. */
export const defaultCurrencies: CurrencySeed[] = [
  { code: 'USD', name: 'US dollar', symbol: '$' },
  { code: 'EUR', name: 'Euro', symbol: '€' },
  { code: 'GBP', name: 'Pound sterling', symbol: '£' },
  { code: 'CHF', name: 'Swiss franc', symbol: 'CHF' },
  { code: 'PLN', name: 'Polish zloty', symbol: 'zł' },
  { code: 'CZK', name: 'Czech koruna', symbol: 'Kč' },
  { code: 'BRL', name: 'Brazilian real', symbol: 'R$' },
  { code: 'UAH', name: 'Ukrainian hryvnia', symbol: '₴' },
  { code: 'RUB', name: 'Russian rouble', symbol: '₽' },
  { code: 'JPY', name: 'Japanese yen', symbol: '¥' },
  { code: 'CAD', name: 'Canadian dollar', symbol: 'C$' },
  { code: 'AUD', name: 'Australian dollar', symbol: 'A$' },
  { code: 'SEK', name: 'Swedish krona', symbol: 'kr' },
  { code: 'NOK', name: 'Norwegian krone', symbol: 'kr' },
  { code: 'DKK', name: 'Danish krone', symbol: 'kr' },
  { code: 'HUF', name: 'Hungarian forint', symbol: 'Ft' },
  { code: 'RON', name: 'Romanian leu', symbol: 'lei' },
  { code: 'TRY', name: 'Turkish lira', symbol: '₺' },
  { code: 'INR', name: 'Indian rupee', symbol: '₹' },
  { code: 'CNY', name: 'Chinese yuan', symbol: 'CN¥' },
  { code: 'MXN', name: 'Mexican peso', symbol: 'MX$' },
];

export const CURRENCY_RATES_JOB = 'currency-rates';

export function createCurrenciesService(deps: {
  repo: CurrenciesRepository;
  rates: RatesCache;
  source: RateSource;
}) {
  const { repo, rates } = deps;
  const reloadRates = async () => rates.replace(await repo.knownRates());

  return {
    async seed() {
      await repo.seed(defaultCurrencies);
      await reloadRates();
    },
    reloadRates,
    /** A manual change; a new rate is marked 'manual' and dated now. */
    async update(id: number, input: CurrencyUpdate) {
      const row = await repo.findById(id);
      if (!row) throw new AppError(404, 'not_found');
      if (input.rate !== undefined && row.code === platformCurrency)
        throw new FieldsError([{ field: 'rate', code: 'platform_rate_fixed' }]);
      // nothing sent, nothing to change
      if (input.name === undefined && input.symbol === undefined && input.rate === undefined) return row;
      const updated = await repo.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.symbol !== undefined ? { symbol: input.symbol } : {}),
        ...(input.rate !== undefined
          ? { rate: rateFromNumber(input.rate), rateSource: 'manual', updatedAt: new Date() }
          : {}),
      });
      if (!updated) throw new AppError(404, 'not_found');
      if (input.rate !== undefined) await reloadRates();
      return updated;
    },
    /**
     * Loads the source's rates into the currencies we know; currencies missing from the feed (RUB, UAH
     * for the ECB) keep their manual rate. Answers a line for the job's last_result.
     */
    async updateFromSource(source: RateSource = deps.source) {
      const snapshot = await source.fetchRates();
      const updated = await repo.applyRates(source.name, snapshot.rates);
      await reloadRates();
      return { source: source.name, date: snapshot.date, updated };
    },
  };
}
export type CurrenciesService = ReturnType<typeof createCurrenciesService>;

const HOUR = 3_600_000;

/**
 * The feed changes once per TARGET day (around 16:00 CET); checking every 6 hours shows a new day's
 * rates within hours of publication. Every instance also reloads its cache, since any instance may run
 * the update or an admin may change a rate elsewhere.
 */
export function scheduleCurrencyJobs(jobs: JobRunner, service: CurrenciesService) {
  jobs.schedule(CURRENCY_RATES_JOB, 6 * HOUR, async () => {
    const r = await service.updateFromSource();
    return jobOutcome(
      'currency_rates',
      `${r.source} ${r.date}: ${r.updated.length} rates (${r.updated.join(' ')})`,
      {
        source: r.source,
        date: r.date,
        count: r.updated.length,
      },
    );
  });
  jobs.every('currency-rates-cache', 5 * 60_000, service.reloadRates);
}
