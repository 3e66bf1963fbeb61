/** ISO weekday 1 = Monday … 7 = Sunday, named in `locale`. */
export function weekdayName(day: number, locale: string): string {
  // 2024-01-01 was a Monday
  const date = new Date(Date.UTC(2024, 0, day));
  return new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(date);
}
