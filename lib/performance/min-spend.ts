import { toMinor } from "@/lib/money";

/**
 * The spend (30 days) a creative needs before the label rules compare it: about 20 US dollars in the currency its
 * money is in, a round amount in major units. A fixed number of minor units would not do: 2,000 is $20 but ₩2,000
 * is about $1.40 and ₫2,000 about 8 cents, so a won or dong creative would be judged on noise.
 *
 * A static table, not an exchange rate: the amounts are rounded from the rates of 2025 and need re-checking only when
 * a currency has moved a lot (the high-inflation ones first: ARS, VES, TRY, NGN, EGP). It holds every currency of
 * Meta's "Currency codes" table (lib/platforms/live/platform-a/currency.ts; those no longer in use at their fixed
 * rate to their successor, e.g. HRK 7.5345 to the euro) and a few more TikTok accounts may be in (KWD, OMR, KZT, MAD,
 * IQD, LKR).
 */
export const MIN_SPEND_MAJOR: Readonly<Record<string, number>> = {
  AED: 75,
  ARS: 30_000,
  AUD: 30,
  BDT: 2_500,
  BGN: 35,
  BHD: 7.5,
  BOB: 140,
  BRL: 100,
  CAD: 30,
  CHF: 15,
  CLP: 20_000,
  CNY: 150,
  COP: 80_000,
  CRC: 10_000,
  CZK: 400,
  DKK: 130,
  DZD: 2_500,
  EGP: 1_000,
  EUR: 20,
  // Meta's ad credits, 10 US cents each.
  FBZ: 200,
  GBP: 15,
  GTQ: 150,
  HKD: 150,
  HNL: 500,
  HRK: 150,
  HUF: 7_000,
  IDR: 300_000,
  ILS: 70,
  INR: 1_800,
  IQD: 25_000,
  ISK: 2_500,
  JOD: 15,
  JPY: 3_000,
  KES: 2_500,
  KRW: 30_000,
  KWD: 6,
  KZT: 10_000,
  LKR: 6_000,
  LTL: 70,
  LVL: 14,
  MAD: 200,
  MOP: 160,
  MXN: 400,
  MYR: 80,
  NGN: 30_000,
  NIO: 700,
  NOK: 200,
  NZD: 35,
  OMR: 7.5,
  PEN: 70,
  PHP: 1_200,
  PKR: 5_500,
  PLN: 75,
  PYG: 150_000,
  QAR: 75,
  RON: 90,
  RSD: 2_000,
  RUB: 1_500,
  SAR: 75,
  SEK: 200,
  SGD: 25,
  SKK: 600,
  THB: 650,
  TRY: 800,
  TWD: 600,
  UAH: 800,
  USD: 20,
  UYU: 800,
  // 100,000 VEF to a VES since 2018.
  VEF: 500_000_000,
  VES: 5_000,
  VND: 500_000,
  ZAR: 350,
};

/**
 * The minimum spend in the currency's minor units (USD 2,000 cents, JPY 3,000 yen, KRW 30,000 won), or null for a
 * currency the table lacks: its creatives are not compared at all (docs/decisions.md), since any guess at its worth
 * could judge them on pennies again.
 */
export function minSpendMinor(currency: string): number | null {
  return Object.hasOwn(MIN_SPEND_MAJOR, currency) ? toMinor(MIN_SPEND_MAJOR[currency]!, currency) : null;
}
