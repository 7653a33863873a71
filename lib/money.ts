/**
 * Money as the service stores it: whole numbers in a currency's minor units, whose size depends on the
 * currency (ISO 4217 as Intl knows it): cents for USD and EUR, yen for JPY (no minor unit), fils for KWD
 * (three digits). Every conversion to and from major units goes through here, never through "/ 100".
 */

const digitsByCurrency = new Map<string, number>();

/** Digits after the decimal point of the currency; 2 for an unknown or missing code. */
export function currencyDigits(currency: string | null | undefined): number {
  if (!currency) return 2;
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** Minor units as major units (1234 USD cents: 12.34; 1234 JPY: 1234); a stored sum may come as a bigint. */
export function toMajor(minor: number | bigint, currency: string | null | undefined): number {
  return Number(minor) / 10 ** currencyDigits(currency);
}

/** Major units as whole minor units (12.345 USD: 1235 cents). */
export function toMinor(major: number, currency: string | null | undefined): number {
  return Math.round(major * 10 ** currencyDigits(currency));
}

/** "12.34 USD", "1234 JPY". */
export function formatMinor(minor: number | bigint, currency: string): string {
  return `${toMajor(minor, currency).toFixed(currencyDigits(currency))} ${currency}`;
}
