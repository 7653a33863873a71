import { currencyDigits, formatMinor } from "@/lib/money";
import { PlatformError } from "../../types";

/**
 * Meta's currency offsets: the one place Adloom's minor units (ISO 4217 digits as lib/money knows them) meet the
 * units the Marketing API takes budgets in. Meta's "Currency codes" reference
 * (https://developers.facebook.com/documentation/ads-commerce/marketing-api/currencies) gives every ad account
 * currency an offset: with 100 an amount of "1" is 1/100 of the currency (1 = 0.01 USD), with 1 it is one whole unit
 * (1 = 1 JPY). Budgets (`daily_budget`, `lifetime_budget`) are integers in those units, both ways.
 *
 * For most currencies that is the ISO minor unit. Where it is not (lib/money's digits, Intl's ISO 4217 data):
 * TWD and CRC have 2 digits but offset 1 (Meta takes whole dollars and colones), BHD and JOD have 3 digits but
 * offset 100 (Meta takes hundredths, not the fils), PKR has 0 digits but offset 100 (Meta takes paisa). Sent as
 * minor units unconverted, a TWD budget was 100 times too large and a PKR one 100 times too small.
 *
 * Insights are not affected: `spend` and `action_values` come as decimal amounts of the currency ("5339.5"),
 * converted with the currency's digits (naming.ts toMinor).
 */
export const META_CURRENCY_OFFSETS: Readonly<Record<string, 1 | 100>> = {
  DZD: 100,
  ARS: 100,
  AUD: 100,
  BHD: 100,
  BDT: 100,
  BOB: 100,
  BGN: 100,
  BRL: 100,
  GBP: 100,
  CAD: 100,
  CLP: 1,
  CNY: 100,
  COP: 1,
  CRC: 1,
  HRK: 100,
  CZK: 100,
  DKK: 100,
  EGP: 100,
  EUR: 100,
  GTQ: 100,
  HNL: 100,
  HKD: 100,
  HUF: 1,
  ISK: 1,
  INR: 100,
  IDR: 1,
  ILS: 100,
  JPY: 1,
  JOD: 100,
  KES: 100,
  KRW: 1,
  LVL: 100,
  LTL: 100,
  MOP: 100,
  MYR: 100,
  MXN: 100,
  NZD: 100,
  NIO: 100,
  NGN: 100,
  NOK: 100,
  PKR: 100,
  PYG: 1,
  PEN: 100,
  PHP: 100,
  PLN: 100,
  QAR: 100,
  RON: 100,
  RUB: 100,
  SAR: 100,
  RSD: 100,
  SGD: 100,
  SKK: 100,
  ZAR: 100,
  SEK: 100,
  CHF: 100,
  TWD: 1,
  THB: 100,
  TRY: 100,
  AED: 100,
  UAH: 100,
  USD: 100,
  UYU: 100,
  VEF: 100,
  VND: 1,
  FBZ: 100,
  VES: 100,
};

/** Meta's offset for the currency; a currency missing from Meta's table is refused rather than guessed (a wrong guess is a factor of 100). */
export function metaOffset(currency: string): 1 | 100 {
  const offset = META_CURRENCY_OFFSETS[currency];
  if (!offset)
    throw new PlatformError("invalid_input", `platform_a: ${currency} is not in Meta's currency table, so its budgets cannot be converted`, {
      retryable: false,
    });
  return offset;
}

/** Powers of ten from our minor units to Meta's units: -2 for TWD and CRC, -1 for BHD and JOD, +2 for PKR, 0 for most. */
function shift(currency: string): number {
  return (metaOffset(currency) === 100 ? 2 : 0) - currencyDigits(currency);
}

/**
 * An amount in our minor units as Meta's units (a budget to send). An amount Meta cannot express (123.45 TWD, whose
 * smallest step on Meta is 1 TWD) is refused with invalid_input before anything is sent, naming the nearest ones.
 */
export function toMetaAmount(amountMinor: number, currency: string): number {
  const k = shift(currency);
  if (k >= 0) return amountMinor * 10 ** k;
  const step = 10 ** -k;
  if (amountMinor % step === 0) return amountMinor / step;
  const below = Math.floor(amountMinor / step) * step;
  throw new PlatformError(
    "invalid_input",
    `budget.amountMinor: platform_a takes ${currency} budgets in steps of ${formatMinor(step, currency)}; ${formatMinor(amountMinor, currency)} is not one (use ${formatMinor(below, currency)} or ${formatMinor(below + step, currency)})`,
    { retryable: false },
  );
}

/** An amount in Meta's units (a budget read back) as our minor units; rounded where our unit is the coarser (PKR). */
export function fromMetaAmount(metaAmount: number, currency: string): number {
  const k = shift(currency);
  return k <= 0 ? metaAmount * 10 ** -k : Math.round(metaAmount / 10 ** k);
}
