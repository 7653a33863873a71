"use client";
import { type KeyboardEvent, useState } from "react";
import { COUNTRIES, countryCode, countryName } from "@/components/dashboard/countries";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/** The codes a country search adds: the chosen ones plus what is typed, when it names a country; null when it names none. */
export function withTyped(codes: string[], typed: string): string[] | null {
  if (!typed.trim()) return codes;
  const code = countryCode(typed);
  return code ? [...new Set([...codes, code])] : null;
}

/**
 * Countries searched and shown by name (the browser's suggestions come from a static ISO 3166-1 list);
 * the form stores their codes, which is what platform targeting takes.
 */
export function CountryPicker({
  id,
  codes,
  onCodes,
  typed,
  onTyped,
}: {
  id: string;
  codes: string[];
  onCodes: (codes: string[]) => void;
  typed: string;
  onTyped: (text: string) => void;
}) {
  const [notFound, setNotFound] = useState<string | null>(null);
  const add = () => {
    const next = withTyped(codes, typed);
    if (!next) return setNotFound(`No country named “${typed.trim()}”: pick one of the suggestions.`);
    setNotFound(null);
    onCodes(next);
    onTyped("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && typed.trim()) {
      e.preventDefault();
      add();
    }
  };
  return (
    <div className="space-y-2">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Field
            id={id}
            label="Target countries"
            hint="Search by name (Germany) and press Enter"
            error={notFound ?? undefined}
            list={`${id}-names`}
            autoComplete="off"
            value={typed}
            onChange={(e) => onTyped(e.target.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <Button type="button" size="sm" variant="secondary" onClick={add} disabled={!typed.trim()}>
          Add
        </Button>
      </div>
      <datalist id={`${id}-names`}>
        {Object.entries(COUNTRIES).map(([code, name]) => (
          <option key={code} value={name} />
        ))}
      </datalist>
      <ul aria-label="Chosen countries" className="flex flex-wrap gap-1" data-testid="chosen-countries">
        {codes.map((code) => (
          <li key={code} data-code={code} className="flex items-center gap-1 rounded-full bg-white px-2 py-0.5 text-sm text-slate-800 ring-1 ring-slate-300">
            {countryName(code)}
            <button
              type="button"
              className="rounded px-1 text-slate-600 hover:text-slate-900"
              aria-label={`Remove ${countryName(code)}`}
              onClick={() => onCodes(codes.filter((c) => c !== code))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
