"use client";
import { useState } from "react";

export function PasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="mt-6 space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const res = await fetch(`/api/review/${token}/password`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ password }),
        }).catch(() => null);
        setBusy(false);
        if (res?.ok) return window.location.reload();
        setError(res?.status === 401 ? "Wrong password." : "Something went wrong. Please try again.");
      }}
    >
      <label htmlFor="review-password" className="block text-sm font-medium text-slate-800">
        Password
      </label>
      <input
        id="review-password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        className="w-full rounded border border-slate-300 px-3 py-2"
      />
      {error && (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} className="w-full rounded bg-indigo-600 px-3 py-2 font-medium text-white disabled:opacity-50">
        {busy ? "Checking…" : "Open"}
      </button>
    </form>
  );
}
