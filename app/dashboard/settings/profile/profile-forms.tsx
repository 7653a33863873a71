"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { formatDateTime } from "@/components/dashboard/format";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import { Alert, Card } from "@/components/ui/misc";
import type { Profile } from "@/lib/dashboard/account";
import { changePasswordAction, createWorkspaceAction, updateProfileAction } from "./actions";

type Outcome = { ok: true; message: string } | { ok: false; message: string } | null;

function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return <Alert tone={outcome.ok ? "green" : "rose"}>{outcome.message}</Alert>;
}

/** Date formats offered in the profile (any BCP 47 locale the runtime knows is accepted by the tool). */
const LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "it-IT", "nl-NL", "pt-BR", "pl-PL", "sv-SE", "ja-JP"];
const SAMPLE = "2026-03-29T14:05:00Z";

export function ProfileForms({ profile, locale: shownLocale, timeZones }: { profile: Profile; locale: string; timeZones: string[] }) {
  const router = useRouter();
  const [name, setName] = useState(profile.name);
  const [timeZone, setTimeZone] = useState(profile.timeZone);
  const [locale, setLocale] = useState(profile.locale ?? shownLocale);
  const locales = LOCALES.includes(locale) ? LOCALES : [locale, ...LOCALES];
  const [profileOutcome, setProfileOutcome] = useState<Outcome>(null);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [passwordOutcome, setPasswordOutcome] = useState<Outcome>(null);
  const [workspaceName, setWorkspaceName] = useState("");
  const [workspaceOutcome, setWorkspaceOutcome] = useState<Outcome>(null);
  const [pending, start] = useTransition();
  const zones = timeZones.includes("UTC") ? timeZones : ["UTC", ...timeZones];

  const submit = (e: FormEvent, fn: () => Promise<void>) => {
    e.preventDefault();
    start(fn);
  };
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="space-y-4 p-6">
        <h2 className="text-lg font-semibold text-slate-900">You</h2>
        <OutcomeAlert outcome={profileOutcome} />
        <form
          className="space-y-4"
          onSubmit={(e) =>
            submit(e, async () => {
              const result = await updateProfileAction({ name, timeZone, locale });
              setProfileOutcome(result.ok ? { ok: true, message: "Profile saved." } : { ok: false, message: result.error });
              if (result.ok) router.refresh();
            })
          }
        >
          <Field id="profile-name" label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} required />
          <Field id="profile-email" label="Email" value={profile.email} readOnly hint="The address you sign in with." />
          <div className="space-y-1">
            <label htmlFor="profile-time-zone" className="block text-sm font-medium text-slate-800">
              Time zone
            </label>
            <Select id="profile-time-zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} aria-describedby="profile-time-zone-hint">
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll("_", " ")}
                </option>
              ))}
            </Select>
            <p id="profile-time-zone-hint" className="text-xs text-slate-600">
              Every time in the dashboard is shown in this zone.{" "}
              <button
                type="button"
                className="font-medium text-indigo-700 underline underline-offset-2"
                onClick={() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone)}
              >
                Use this device’s zone
              </button>
            </p>
          </div>
          <div className="space-y-1">
            <label htmlFor="profile-locale" className="block text-sm font-medium text-slate-800">
              Date format
            </label>
            <Select id="profile-locale" value={locale} onChange={(e) => setLocale(e.target.value)} aria-describedby="profile-locale-hint">
              {locales.map((l) => (
                <option key={l} value={l}>
                  {l}: {formatDateTime(SAMPLE, { timeZone, locale: l })}
                </option>
              ))}
            </Select>
            <p id="profile-locale-hint" className="text-xs text-slate-600">
              How every date and time in the dashboard is written{profile.locale ? "." : " (until you choose, your browser’s language)."}
            </p>
          </div>
          <Button type="submit" disabled={pending}>
            Save profile
          </Button>
        </form>
      </Card>

      <Card className="space-y-4 p-6">
        <h2 className="text-lg font-semibold text-slate-900">Password</h2>
        <OutcomeAlert outcome={passwordOutcome} />
        <form
          className="space-y-4"
          onSubmit={(e) =>
            submit(e, async () => {
              const result = await changePasswordAction({ current, next });
              // Every session has ended, this one too: sign in again with the new password.
              if (result.ok) window.location.assign(`/sign-in?error=password_changed&callbackUrl=${encodeURIComponent("/dashboard/settings/profile")}`);
              else setPasswordOutcome({ ok: false, message: result.error });
            })
          }
        >
          {profile.hasPassword && (
            <Field
              id="current-password"
              type="password"
              label="Current password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              required
            />
          )}
          <Field
            id="new-password"
            type="password"
            label="New password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
            required
            minLength={10}
            hint="At least 10 characters."
          />
          <Button type="submit" disabled={pending}>
            Change password
          </Button>
        </form>
      </Card>

      <Card className="space-y-4 p-6 lg:col-span-2">
        <h2 id="new-workspace" className="text-lg font-semibold text-slate-900">
          Another workspace
        </h2>
        <p className="text-sm text-slate-600">
          A separate library, team and plan (it starts on the 14-day free trial). Switch between workspaces from the menu.
        </p>
        <OutcomeAlert outcome={workspaceOutcome} />
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) =>
            submit(e, async () => {
              const result = await createWorkspaceAction({ name: workspaceName });
              if (!result.ok) return setWorkspaceOutcome({ ok: false, message: result.error });
              router.push("/dashboard/library");
              router.refresh();
            })
          }
        >
          <div className="w-full sm:w-72">
            <Field
              id="new-workspace-name"
              label="Workspace name"
              value={workspaceName}
              maxLength={100}
              onChange={(e) => setWorkspaceName(e.target.value)}
              required
            />
          </div>
          <Button type="submit" disabled={pending || !workspaceName.trim()}>
            Create workspace
          </Button>
        </form>
      </Card>
    </div>
  );
}
