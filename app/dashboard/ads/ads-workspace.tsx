"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section } from "@/components/ui/misc";
import { ActivateAdsButton } from "./activate-ads";
import { adSetNoun, money, PLATFORM_LABEL, refusedAds, tool, type Account, type Ad, type AdSet, type Campaign, type PlatformName } from "./ads-api";
import { objectiveWords } from "@/components/dashboard/plain-words";
import { LaunchFromLibrary } from "./launch-from-library";
import { CountryPicker, withTyped } from "./country-picker";
import { type ChosenLocation, LocationPicker } from "./location-picker";
import { countryName } from "@/components/dashboard/countries";
import { toMinor } from "@/lib/money";

interface Flags {
  canWrite: boolean;
  canLaunch: boolean;
  canDelete: boolean;
  /** The member's role, for saying why a control is disabled. */
  role: string;
}

/** Ids of the sentences saying why controls are disabled; a disabled control points at its reason (aria-describedby). */
const WRITE_REASON = "ads-write-reason";
const LAUNCH_REASON = "ads-launch-reason";
const reasonFor = (allowed: boolean, id: string) => (allowed ? undefined : id);

function DisabledReasons({ flags }: { flags: Flags }) {
  if (flags.canWrite && flags.canLaunch) return null;
  return (
    <div className="space-y-1 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700" data-testid="ads-disabled-reasons">
      {!flags.canWrite && (
        <p id={WRITE_REASON}>
          Your role ({flags.role}) can view ads and results but not create, change or pause them (needs &quot;ads.write&quot;: editors and above).
        </p>
      )}
      {!flags.canLaunch && (
        <p id={LAUNCH_REASON}>
          Your role ({flags.role}) cannot activate ads or change budgets, which spends money (needs &quot;ads.launch&quot;: owners and admins).
        </p>
      )}
    </div>
  );
}

type Objective = Campaign["objective"];
const OBJECTIVES: Objective[] = ["sales", "traffic", "leads", "awareness", "engagement"];
const message = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong. Please try again.");

export function StatusBadge({ status }: { status: string }) {
  const tone = status === "active" ? "green" : status === "paused" ? "amber" : "slate";
  return <Badge tone={tone}>{status}</Badge>;
}

export function AdsWorkspace(flags: Flags) {
  const accounts = useQuery({ queryKey: ["ad-accounts"], queryFn: () => tool("list_ad_accounts") });
  const [platform, setPlatform] = useState<PlatformName>("platform_a");
  const account = accounts.data?.accounts.find((a) => a.platform === platform);

  return (
    <div className="space-y-8">
      <DisabledReasons flags={flags} />
      <Section id="accounts" title="Ad accounts">
        {accounts.error && <Alert>{message(accounts.error)}</Alert>}
        <div className="grid gap-3 sm:grid-cols-2">
          {(accounts.data?.accounts ?? []).map((a) => (
            <button
              key={a.id}
              type="button"
              aria-pressed={a.platform === platform}
              onClick={() => setPlatform(a.platform)}
              className={`rounded-lg border p-4 text-left transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600 ${a.platform === platform ? "border-indigo-600 bg-indigo-50" : "border-slate-200 bg-white hover:bg-slate-50"}`}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="font-semibold text-slate-900">{PLATFORM_LABEL[a.platform]}</span>
                <StatusBadge status={a.status} />
              </span>
              <span className="mt-1 block text-sm text-slate-600">
                {a.name} · {a.externalAccountId}
              </span>
              <span className="mt-1 block text-xs text-slate-600">
                {a.currency} · {a.timeZone} · today {a.today}
              </span>
            </button>
          ))}
        </div>
      </Section>
      {account && <Campaigns key={platform} account={account} flags={flags} />}
    </div>
  );
}

function Campaigns({ account, flags }: { account: Account; flags: Flags }) {
  const platform = account.platform;
  const client = useQueryClient();
  const campaigns = useQuery({ queryKey: ["campaigns", platform], queryFn: () => tool("list_campaigns", { platform, limit: 100 }) });
  const [name, setName] = useState("");
  const [objective, setObjective] = useState<Objective>("sales");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await tool("create_campaign", { platform, name, objective });
      setName("");
      setError(null);
      await client.invalidateQueries({ queryKey: ["campaigns", platform] });
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="campaigns" title={`Campaigns on ${PLATFORM_LABEL[platform]}`}>
      {
        <Card className="mb-4 p-4">
          <form onSubmit={create} className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end" aria-label="New campaign">
            <Field
              id="campaign-name"
              label="New campaign name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={200}
              disabled={!flags.canWrite}
              aria-describedby={reasonFor(flags.canWrite, WRITE_REASON)}
            />
            <SelectField
              id="campaign-objective"
              label="Objective"
              value={objective}
              onChange={(e) => setObjective(e.target.value as Objective)}
              disabled={!flags.canWrite}
              aria-describedby={reasonFor(flags.canWrite, WRITE_REASON)}
            >
              {OBJECTIVES.map((o) => (
                <option key={o} value={o}>
                  {objectiveWords(o)}
                </option>
              ))}
            </SelectField>
            <Button type="submit" disabled={busy || !name.trim() || !flags.canWrite} aria-describedby={reasonFor(flags.canWrite, WRITE_REASON)}>
              Create campaign
            </Button>
          </form>
          {error && (
            <div className="mt-3">
              <Alert>{error}</Alert>
            </div>
          )}
        </Card>
      }
      {campaigns.error && <Alert>{message(campaigns.error)}</Alert>}
      {campaigns.data && campaigns.data.campaigns.length === 0 && (
        <EmptyState title="No campaigns yet">Create a campaign, then an {adSetNoun(platform)} in it, then launch ads from your library.</EmptyState>
      )}
      <div className="space-y-4">
        {campaigns.data?.campaigns.map((c) => (
          <CampaignCard key={c.id} campaign={c} account={account} flags={flags} />
        ))}
      </div>
    </Section>
  );
}

function CampaignCard({ campaign, account, flags }: { campaign: Campaign; account: Account; flags: Flags }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const adSets = useQuery({ queryKey: ["ad-sets", campaign.id], queryFn: () => tool("list_ad_sets", { campaignId: campaign.id, limit: 100 }), enabled: open });
  const toggle = async () => {
    try {
      await tool(campaign.status === "active" ? "pause_campaign" : "activate_campaign", { id: campaign.id });
      setError(null);
      await client.invalidateQueries({ queryKey: ["campaigns", campaign.platform] });
    } catch (err) {
      setError(message(err));
    }
  };
  const canToggle = campaign.status === "active" ? flags.canWrite : flags.canLaunch;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-3" data-testid="campaign" data-name={campaign.name}>
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-slate-900">{campaign.name}</h3>
          <p className="text-sm text-slate-600">
            Objective: {objectiveWords(campaign.objective)} · <StatusBadge status={campaign.status} />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {campaign.status !== "deleted" && (
            <Button
              size="sm"
              variant="secondary"
              onClick={toggle}
              disabled={!canToggle}
              aria-describedby={reasonFor(canToggle, campaign.status === "active" ? WRITE_REASON : LAUNCH_REASON)}
            >
              {campaign.status === "active" ? "Pause campaign" : "Activate campaign"}
            </Button>
          )}
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Hide" : "Show"} {adSetNoun(campaign.platform)}s
          </Button>
        </div>
      </div>
      {error && (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      )}
      {open && (
        <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
          {adSets.data?.adSets.map((s) => (
            <AdSetBlock key={s.id} adSet={s} account={account} flags={flags} />
          ))}
          {adSets.data && adSets.data.adSets.length === 0 && <p className="text-sm text-slate-600">No {adSetNoun(campaign.platform)}s yet.</p>}
          {flags.canWrite ? (
            <AdSetForm campaign={campaign} account={account} />
          ) : (
            <p className="text-sm text-slate-600">New {adSetNoun(campaign.platform)}s need the permission &quot;ads.write&quot;.</p>
          )}
        </div>
      )}
    </Card>
  );
}

/** The create form for the campaign's platform: only that platform's targeting fields. */
function AdSetForm({ campaign, account }: { campaign: Campaign; account: Account }) {
  const client = useQueryClient();
  const platform = campaign.platform;
  const noun = adSetNoun(platform);
  const [name, setName] = useState("");
  const [amount, setAmount] = useState(platform === "platform_a" ? "50" : "50");
  const [places, setPlaces] = useState<ChosenLocation[]>([]);
  const [countries, setCountries] = useState(["US"]);
  const [typedCountry, setTypedCountry] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const min = platform === "platform_a" ? 1 : 20;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // A country typed but not yet added counts when it names one.
    const targetCountries = withTyped(countries, typedCountry);
    if (platform === "platform_a" && !targetCountries) return setError(`No country named “${typedCountry.trim()}”`);
    if (platform === "platform_a" && !targetCountries?.length && !places.length) return setError("Choose at least one country, region or city");
    if (platform === "platform_b" && !places.length) return setError("Choose at least one location");
    const idsOf = (type: ChosenLocation["type"]) => places.filter((p) => p.type === type).map((p) => p.id);
    setBusy(true);
    try {
      await tool("create_ad_set", {
        campaignId: campaign.id,
        platform,
        name,
        budget: { type: "daily", amountMinor: toMinor(Number(amount), account.currency) },
        ...(platform === "platform_a"
          ? {
              ...(targetCountries?.length ? { targetCountries } : {}),
              ...(idsOf("region").length ? { targetRegions: idsOf("region") } : {}),
              ...(idsOf("city").length ? { targetCities: idsOf("city") } : {}),
            }
          : { locationIds: places.map((p) => p.id) }),
      });
      setName("");
      if (targetCountries) {
        setCountries(targetCountries);
        setTypedCountry("");
      }
      setError(null);
      await client.invalidateQueries({ queryKey: ["ad-sets", campaign.id] });
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const id = `adset-${campaign.id}`;
  return (
    <form onSubmit={submit} aria-label={`New ${noun} in ${campaign.name}`} className="rounded-md bg-slate-50 p-3">
      <div className="grid gap-3 sm:grid-cols-3 sm:items-end">
        <Field id={`${id}-name`} label={`New ${noun} name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        <Field
          id={`${id}-budget`}
          label={`Daily budget (${account.currency})`}
          hint={`At least ${min}.00 ${account.currency} per day`}
          type="number"
          min={min}
          step="0.01"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          required
        />
        {platform === "platform_a" ? (
          <CountryPicker id={`${id}-countries`} codes={countries} onCodes={setCountries} typed={typedCountry} onTyped={setTypedCountry} />
        ) : (
          <LocationPicker
            id={`${id}-locations`}
            platform={platform}
            types={["country", "region", "city"]}
            label="Locations"
            hint="Search countries, regions and cities by name (Munich), then pick one"
            chosen={places}
            onChosen={setPlaces}
          />
        )}
      </div>
      {platform === "platform_a" && (
        <div className="mt-3 sm:max-w-md">
          <LocationPicker
            id={`${id}-places`}
            platform={platform}
            types={["region", "city"]}
            label="Regions and cities"
            hint="Search by name (Bavaria, Munich), then pick one; with or instead of countries"
            chosen={places}
            onChosen={setPlaces}
          />
        </div>
      )}
      <div className="mt-3 flex justify-end">
        <Button type="submit" size="sm" disabled={busy || !name.trim()}>
          Create {noun}
        </Button>
      </div>
      {error && (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      )}
    </form>
  );
}

/** An ad set's places in words: countries by name, regions, cities and location ids by the names the location search gave them. */
function targetingWords(adSet: AdSet): string {
  const named = (ids: string[] | null | undefined) => (ids ?? []).map((id) => adSet.locationNames[id] ?? id).join(", ");
  if (adSet.platform === "platform_b") return `Locations ${named(adSet.locationIds)}`;
  return [
    adSet.targetCountries?.length ? `Countries ${adSet.targetCountries.map(countryName).join(", ")}` : "",
    adSet.targetRegions?.length ? `Regions ${named(adSet.targetRegions)}` : "",
    adSet.targetCities?.length ? `Cities ${named(adSet.targetCities)}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

function AdSetBlock({ adSet, account, flags }: { adSet: AdSet; account: Account; flags: Flags }) {
  const client = useQueryClient();
  const ads = useQuery({ queryKey: ["ads", adSet.id], queryFn: () => tool("list_ads", { adSetId: adSet.id, limit: 200 }) });
  const [launching, setLaunching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Activating ads also activates their ad set and campaign: refresh all three levels.
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ["ads", adSet.id] }),
      client.invalidateQueries({ queryKey: ["ad-sets", adSet.campaignId] }),
      client.invalidateQueries({ queryKey: ["campaigns", adSet.platform] }),
    ]);
  const paused = (ads.data?.ads ?? []).filter((a) => a.status === "paused").map((a) => a.id);
  const targeting = targetingWords(adSet);
  const totalToday = (ads.data?.ads ?? []).reduce((s, a) => s + (a.today?.spendMinor ?? 0), 0);

  const pauseAds = async () => {
    try {
      const { failed } = await tool("pause_ads", { adIds: (ads.data?.ads ?? []).filter((a) => a.status === "active").map((a) => a.id) });
      await refresh();
      if (failed.length) setError(refusedAds("paused", failed));
    } catch (err) {
      setError(message(err));
    }
  };

  return (
    <div className="rounded-md border border-slate-200" data-testid="ad-set" data-name={adSet.name}>
      <div className="flex flex-wrap items-start justify-between gap-3 p-3">
        <div className="min-w-0">
          <h4 className="font-medium text-slate-900">
            {adSet.name} <span className="text-xs font-normal text-slate-500">({adSetNoun(adSet.platform)})</span>
          </h4>
          <p className="text-sm text-slate-600">
            <StatusBadge status={adSet.status} /> · {money(adSet.budget.amountMinor, account.currency)} {adSet.budget.type === "daily" ? "per day" : "lifetime"}{" "}
            · {targeting}
          </p>
          <p className="text-sm text-slate-600">
            Spend today: <span data-testid="ad-set-spend-today">{money(totalToday, account.currency)}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="ghost" onClick={refresh}>
            Refresh
          </Button>
          <Button
            size="sm"
            variant="secondary"
            aria-expanded={launching}
            onClick={() => setLaunching(!launching)}
            disabled={!flags.canWrite}
            aria-describedby={reasonFor(flags.canWrite, WRITE_REASON)}
          >
            Launch from library
          </Button>
          {paused.length > 0 &&
            (flags.canLaunch ? (
              <ActivateAdsButton adIds={paused} onDone={refresh} />
            ) : (
              <Button size="sm" disabled aria-describedby={LAUNCH_REASON}>
                Activate {paused.length} ad{paused.length === 1 ? "" : "s"}
              </Button>
            ))}
          {(ads.data?.ads ?? []).some((a) => a.status === "active") && (
            <Button size="sm" variant="secondary" onClick={pauseAds} disabled={!flags.canWrite} aria-describedby={reasonFor(flags.canWrite, WRITE_REASON)}>
              Pause ads
            </Button>
          )}
        </div>
      </div>
      {error && (
        <div className="px-3 pb-3">
          <Alert>{error}</Alert>
        </div>
      )}
      {launching && flags.canWrite && (
        <div className="border-t border-slate-100 p-3">
          <LaunchFromLibrary adSet={adSet} canLaunch={flags.canLaunch} onBuilt={refresh} />
        </div>
      )}
      <AdsTable ads={ads.data?.ads ?? []} currency={account.currency} loading={ads.isLoading} />
    </div>
  );
}

function AdsTable({ ads, currency, loading }: { ads: Ad[]; currency: string; loading: boolean }) {
  if (loading) return <p className="px-3 pb-3 text-sm text-slate-600">Loading ads…</p>;
  if (!ads.length) return <p className="px-3 pb-3 text-sm text-slate-600">No ads yet.</p>;
  return (
    // Focusable, so keyboard users can scroll the table between the phone cards and a wide screen.
    <div className="border-t border-slate-100 md:overflow-x-auto" tabIndex={0} role="region" aria-label="Ads">
      <table className="stack-table figure-cards w-full text-left text-sm md:min-w-[32rem]">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Ad
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Spend today
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Last 7 days
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Clicks today
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {ads.map((ad) => (
            <tr key={ad.id} data-testid="ad-row" data-status={ad.status}>
              <th scope="row" className="max-w-[16rem] truncate px-3 py-2 text-left font-medium text-slate-900" title={ad.name}>
                {ad.name}
              </th>
              <td data-label="Status" className="px-3 py-2">
                <StatusBadge status={ad.status} />
              </td>
              <td data-label="Spend today" className="px-3 py-2 text-right tabular-nums" data-testid="ad-spend-today">
                {money(ad.today?.spendMinor ?? 0, currency)}
              </td>
              <td data-label="Last 7 days" className="px-3 py-2 text-right tabular-nums" data-testid="ad-spend-7d">
                {money(ad.last7Days?.spendMinor ?? 0, currency)}
              </td>
              <td data-label="Clicks today" className="px-3 py-2 text-right tabular-nums">
                {ad.today?.clicks ?? 0}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
