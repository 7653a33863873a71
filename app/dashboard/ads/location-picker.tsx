"use client";
import { useEffect, useId, useState } from "react";
import { inputClass } from "@/components/ui/field";
import { tool, type PlatformName } from "./ads-api";

export interface ChosenLocation {
  id: string;
  type: "country" | "region" | "city";
  name: string;
  countryCode: string | null;
  regionName: string | null;
}

const TYPE_WORD: Record<ChosenLocation["type"], string> = { country: "country", region: "region", city: "city" };

/** "Munich, Bavaria, DE (city)": enough to tell two places of one name apart. */
export function describeLocation(l: ChosenLocation): string {
  const where = [l.regionName, l.countryCode].filter(Boolean).join(", ");
  return `${l.name}${where ? `, ${where}` : ""} (${TYPE_WORD[l.type]})`;
}

/**
 * Places searched by name on the ad account's platform (search_locations: Meta's and TikTok's targeting
 * search, the sandbox's list), chosen into a list shown by name; the form sends their platform ids.
 * The ARIA combobox pattern: the input keeps focus, ArrowDown/ArrowUp move through the listbox
 * (aria-activedescendant), Enter or a click chooses, Escape closes; a status line announces the matches.
 */
export function LocationPicker({
  id,
  platform,
  types,
  label,
  hint,
  chosen,
  onChosen,
}: {
  id: string;
  platform: PlatformName;
  types: ChosenLocation["type"][];
  label: string;
  hint: string;
  chosen: ChosenLocation[];
  onChosen: (next: ChosenLocation[]) => void;
}) {
  const listId = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<ChosenLocation[]>([]);
  const [status, setStatus] = useState("");
  const query = text.trim();
  // A string, so that a new array of the same kinds each render does not search again.
  const kinds = types.join(",");

  useEffect(() => {
    if (query.length < 2) {
      setFound([]);
      setStatus("");
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const searched = kinds.split(",") as ChosenLocation["type"][];
        const { locations } = await tool("search_locations", { platform, query, types: searched, limit: 8 });
        if (!current) return;
        setFound(locations);
        setActive(0);
        setStatus(
          locations.length
            ? `${locations.length} place${locations.length === 1 ? "" : "s"} found; arrows to move, Enter to choose, Escape to close`
            : `No place named “${query}”`,
        );
      } catch (err) {
        if (current) setStatus(err instanceof Error ? err.message : "The search failed");
      }
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [platform, query, kinds]);

  const options = found.filter((l) => !chosen.some((c) => c.id === l.id && c.type === l.type));
  const expanded = open && options.length > 0;
  const optionId = (i: number) => `${listId}-option-${i}`;
  const choose = (place: ChosenLocation) => {
    onChosen([...chosen, place]);
    setText("");
    setFound([]);
    setOpen(false);
  };

  return (
    <div className="space-y-2">
      <div className="relative space-y-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        <input
          id={id}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded ? optionId(Math.min(active, options.length - 1)) : undefined}
          aria-describedby={`${id}-desc`}
          autoComplete="off"
          className={inputClass}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              setOpen(true);
              if (!options.length) return;
              const step = e.key === "ArrowDown" ? 1 : -1;
              setActive((i) => (Math.min(i, options.length - 1) + step + options.length) % options.length);
            } else if (e.key === "Enter" && expanded) {
              e.preventDefault();
              choose(options[Math.min(active, options.length - 1)]!);
            } else if (e.key === "Enter") {
              // Enter in an empty or unmatched search must not submit the ad set form.
              if (text.trim()) e.preventDefault();
            } else if (e.key === "Escape" && expanded) {
              e.preventDefault();
              e.stopPropagation();
              setOpen(false);
            }
          }}
        />
        <p id={`${id}-desc`} className="text-xs text-slate-500">
          {hint}
        </p>
        <div
          id={listId}
          role="listbox"
          aria-label={`${label}: places found`}
          hidden={!expanded}
          className="absolute left-0 right-0 z-20 mt-1 max-h-60 overflow-auto rounded border border-slate-300 bg-white py-1 text-sm shadow-lg"
        >
          {options.map((place, i) => (
            <div
              key={`${place.type}:${place.id}`}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === Math.min(active, options.length - 1)}
              data-id={place.id}
              className={`cursor-pointer px-3 py-2 ${i === Math.min(active, options.length - 1) ? "bg-indigo-600 text-white" : "text-slate-900"}`}
              // mousedown, not click: the input keeps focus (its blur would close the list first).
              onMouseDown={(e) => {
                e.preventDefault();
                choose(place);
              }}
            >
              {describeLocation(place)}
            </div>
          ))}
        </div>
        <p className="sr-only" role="status">
          {open ? status : ""}
        </p>
      </div>
      <ul aria-label={`Chosen ${label.toLowerCase()}`} className="flex flex-wrap gap-1" data-testid="chosen-locations">
        {chosen.map((place) => (
          <li
            key={`${place.type}:${place.id}`}
            data-id={place.id}
            className="flex items-center gap-1 rounded-full bg-white px-2 py-0.5 text-sm text-slate-800 ring-1 ring-slate-300"
          >
            {describeLocation(place)}
            <button
              type="button"
              className="rounded px-1 text-slate-600 hover:text-slate-900"
              aria-label={`Remove ${place.name}`}
              onClick={() => onChosen(chosen.filter((c) => !(c.id === place.id && c.type === place.type)))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
