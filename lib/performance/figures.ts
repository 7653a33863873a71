import { toMajor } from "@/lib/money";

/** Delivery figures summed over any set of insight rows, money in minor units. */
export interface FigureSums {
  impressions: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  valueMinor: number;
}

/** What every results view shows: the sums in major units and the ratios between them. */
export interface Figures {
  impressions: number;
  clicks: number;
  /** In the account's currency (major units). */
  spend: number;
  conversions: number;
  conversionValue: number;
  ctr: number | null;
  cpa: number | null;
  roas: number | null;
}

/** The ratios from sums, never from averaging rows' ratios (a total's CTR is its clicks over its impressions). */
export function figuresFromSums(s: FigureSums, currency: string): Figures {
  return {
    impressions: s.impressions,
    clicks: s.clicks,
    spend: toMajor(s.spendMinor, currency),
    conversions: s.conversions,
    conversionValue: toMajor(s.valueMinor, currency),
    ctr: s.impressions ? s.clicks / s.impressions : null,
    cpa: s.conversions ? toMajor(s.spendMinor / s.conversions, currency) : null,
    roas: s.spendMinor ? s.valueMinor / s.spendMinor : null,
  };
}
