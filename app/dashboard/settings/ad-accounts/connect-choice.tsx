import { Alert, Card } from "@/components/ui/misc";
import { buttonClass } from "@/components/ui/button";
import type { PendingGrantView } from "@/lib/dashboard/ad-account-oauth";

const PLATFORM_NAMES = { platform_a: "Meta", platform_b: "TikTok" } as const;

/** The Connect choice step: which of the authorized ad accounts to connect and (Meta) which Page the ads publish as. */
export function ConnectChoice({ grant, error }: { grant: PendingGrantView; error: string | null }) {
  const accountWord = grant.platform === "platform_a" ? "ad accounts" : "advertiser accounts";
  const headingId = `choose-${grant.id}`;
  return (
    <Card className="mb-6 p-4">
      <form method="post" action={`/api/ad-accounts/oauth/pending/${grant.id}`} className="space-y-4" aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold">
          Choose what to connect from {PLATFORM_NAMES[grant.platform]}
        </h2>
        {error && <Alert>{error}</Alert>}
        <fieldset className="space-y-2">
          <legend className="font-medium">Which {accountWord}?</legend>
          {grant.accounts.map((a) => (
            <label key={a.id} className="flex items-center gap-2 break-all">
              <input type="checkbox" name="account" value={a.id} />
              <span>
                {a.name} <span className="text-sm text-zinc-700 dark:text-zinc-300">({a.id})</span>
              </span>
            </label>
          ))}
        </fieldset>
        {grant.pages.length > 0 && (
          <fieldset className="space-y-2">
            <legend className="font-medium">Which Page do the ads publish as?</legend>
            {grant.pages.map((p, i) => (
              <label key={p.id} className="flex items-center gap-2 break-all">
                <input type="radio" name="page" value={p.id} defaultChecked={i === 0} />
                <span>
                  {p.name} <span className="text-sm text-zinc-700 dark:text-zinc-300">({p.id})</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This choice is kept until {new Date(grant.expiresAt).toISOString().slice(11, 16)} UTC; after that, click Connect again.
        </p>
        <button type="submit" className={buttonClass()}>
          Connect selected
        </button>
      </form>
    </Card>
  );
}
