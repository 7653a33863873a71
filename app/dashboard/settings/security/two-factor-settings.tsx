"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Alert, Badge, Card } from "@/components/ui/misc";
import { confirmEnrolmentAction, disableTwoFactorAction, startEnrolmentAction } from "./actions";

type Enrolment = { secret: string; qrSvg: string };

export function TwoFactorSettings({
  enabled,
  remainingRecoveryCodes,
  requiredFor,
}: {
  enabled: boolean;
  remainingRecoveryCodes: number;
  requiredFor: string[];
}) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");

  const begin = () =>
    start(async () => {
      const result = await startEnrolmentAction();
      if (!result.ok) return setError(result.error);
      setError(null);
      setEnrolment({ secret: result.data.secret, qrSvg: result.data.qrSvg });
    });
  const confirm = (e: React.FormEvent) => {
    e.preventDefault();
    start(async () => {
      const result = await confirmEnrolmentAction(code);
      if (!result.ok) return setError(result.error);
      setError(null);
      setEnrolment(null);
      setCode("");
      setRecoveryCodes(result.data.recoveryCodes);
    });
  };
  const disable = (e: React.FormEvent) => {
    e.preventDefault();
    start(async () => {
      const result = await disableTwoFactorAction(code);
      if (!result.ok) return setError(result.error);
      setError(null);
      setCode("");
    });
  };

  return (
    <Card className="max-w-2xl p-6">
      <div className="flex items-center justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Two-factor authentication</h2>
          <p className="mt-1 text-sm text-slate-600">
            A 6-digit code from an authenticator app (1Password, Google Authenticator, Authy…) is asked for after your password.
          </p>
        </div>
        <Badge tone={enabled ? "green" : "slate"}>
          <span data-testid="two-factor-status">{enabled ? "On" : "Off"}</span>
        </Badge>
      </div>
      {requiredFor.length > 0 && !enabled && (
        <div className="mt-4">
          <Alert tone="amber">This workspace requires two-factor authentication for some actions ({requiredFor.join(", ")}).</Alert>
        </div>
      )}
      {error && (
        <div className="mt-4">
          <Alert>{error}</Alert>
        </div>
      )}

      {recoveryCodes && (
        <div className="mt-6 rounded-md border border-emerald-300 bg-emerald-50 p-4">
          <h3 className="font-semibold text-emerald-900">Two-factor authentication is on. Save your recovery codes</h3>
          <p className="mt-1 text-sm text-emerald-900">Each code signs you in once if you lose your phone. They are shown only now.</p>
          <ul data-testid="recovery-codes" className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm text-slate-900">
            {recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="mt-3">
            <CopyButton value={recoveryCodes.join("\n")} label="Copy codes" />
          </div>
        </div>
      )}

      {!enabled && !enrolment && !recoveryCodes && (
        <Button className="mt-6" onClick={begin} disabled={pending}>
          Set up two-factor authentication
        </Button>
      )}

      {enrolment && (
        <form onSubmit={confirm} className="mt-6 grid gap-6 sm:grid-cols-[200px_1fr]">
          <div>
            <div
              className="size-[200px] rounded-md border border-slate-200 bg-white p-2"
              role="img"
              aria-label="QR code to scan with your authenticator app"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the QR code SVG is rendered on the server by the qrcode package from our own otpauth URI
              dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
            />
          </div>
          <div className="space-y-4">
            <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
              <li>Scan the QR code with your authenticator app.</li>
              <li>Or enter this key by hand:</li>
            </ol>
            <div className="flex items-center gap-2">
              <code data-testid="totp-secret" className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm">
                {enrolment.secret}
              </code>
              <CopyButton value={enrolment.secret} />
            </div>
            <Field
              id="totp-code"
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              required
              maxLength={6}
            />
            <Button type="submit" disabled={pending || code.trim().length < 6}>
              Turn on
            </Button>
          </div>
        </form>
      )}

      {enabled && !recoveryCodes && (
        <form onSubmit={disable} className="mt-6 max-w-sm space-y-3">
          <p className="text-sm text-slate-700">{remainingRecoveryCodes} unused recovery codes left.</p>
          <Field
            id="disable-code"
            label="Code to turn it off"
            hint="A current code from your app, or a recovery code."
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoComplete="one-time-code"
          />
          <Button type="submit" variant="secondary" disabled={pending || !code.trim()}>
            Turn off two-factor authentication
          </Button>
        </form>
      )}
    </Card>
  );
}
