"use client";
import { useId, useRef, useState, type TextareaHTMLAttributes } from "react";

/** A member who can be mentioned: `handle` is what follows the `@` (their full name, or their address's local part). */
export interface Mentionable {
  userId: string;
  name: string;
  handle: string;
}

/** The `@word` being typed just before the caret: where it starts and what follows the `@`. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,40}(?: [^\s@]{1,40})?)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** Members whose name or handle starts a word with the query (case-insensitive), at most `limit`. */
export function matchMembers(members: Mentionable[], query: string, limit = 6): Mentionable[] {
  const q = query.trim().toLowerCase();
  if (!q) return members.slice(0, limit);
  return members
    .filter((m) =>
      [m.name, m.handle].some((text) => {
        const lower = text.toLowerCase();
        return lower.startsWith(q) || lower.includes(` ${q}`);
      }),
    )
    .slice(0, limit);
}

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange"> & {
  value: string;
  onValueChange: (value: string) => void;
  members: Mentionable[];
};

/**
 * A comment box that offers workspace members when `@` is typed: the list follows the typed text,
 * ArrowDown/ArrowUp move through it, Enter (or a click) inserts `@<handle> `, Escape closes it.
 * The ARIA combobox pattern on a textarea: it keeps its textbox role (ARIA in HTML allows no role on
 * a textarea), with aria-autocomplete="list", aria-controls and aria-activedescendant pointing into
 * the listbox, and a status line announcing how many members match.
 */
export function MentionTextarea({ value, onValueChange, members, className, onKeyDown, ...rest }: Props) {
  const listId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const options = query ? matchMembers(members, query.query) : [];
  const open = options.length > 0;

  const follow = (text: string, caret: number) => {
    const next = mentionQueryAt(text, caret);
    setQuery(next);
    if (next?.query !== query?.query) setActive(0);
  };

  const choose = (member: Mentionable) => {
    const el = ref.current;
    if (!el || !query) return;
    const caret = el.selectionStart ?? value.length;
    const inserted = `@${member.handle} `;
    const next = value.slice(0, query.start) + inserted + value.slice(caret);
    onValueChange(next);
    setQuery(null);
    const at = query.start + inserted.length;
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(at, at);
    });
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className="relative">
      <textarea
        {...rest}
        ref={ref}
        value={value}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={open ? optionId(active) : undefined}
        className={className}
        onChange={(e) => {
          onValueChange(e.target.value);
          follow(e.target.value, e.target.selectionStart ?? e.target.value.length);
        }}
        onSelect={(e) => follow(e.currentTarget.value, e.currentTarget.selectionStart ?? 0)}
        onBlur={() => setQuery(null)}
        onKeyDown={(e) => {
          if (open) {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const step = e.key === "ArrowDown" ? 1 : -1;
              setActive((i) => (i + step + options.length) % options.length);
              return;
            }
            if (e.key === "Enter" || e.key === "Tab") {
              e.preventDefault();
              choose(options[Math.min(active, options.length - 1)]!);
              return;
            }
            if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              setQuery(null);
              return;
            }
          }
          onKeyDown?.(e);
        }}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Members to mention"
        hidden={!open}
        data-testid="mention-options"
        className="absolute left-0 right-0 z-20 mt-1 max-h-60 overflow-auto rounded border border-slate-300 bg-white py-1 text-sm shadow-lg sm:right-auto sm:min-w-64"
      >
        {options.map((m, i) => (
          // Focus stays in the textarea (aria-activedescendant names the active option); -1 only makes options focusable by script.
          <div
            key={m.userId}
            id={optionId(i)}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className={`cursor-pointer px-3 py-2 ${i === active ? "bg-indigo-600 text-white" : "text-slate-900"}`}
            // mousedown, not click: the textarea keeps focus (its blur would close the list first).
            onMouseDown={(e) => {
              e.preventDefault();
              choose(m);
            }}
          >
            {m.name || m.handle}
            {m.name && m.handle !== m.name && <span className={i === active ? "text-indigo-100" : "text-slate-600"}> @{m.handle}</span>}
          </div>
        ))}
      </div>
      <p className="sr-only" role="status">
        {open ? `${options.length} member${options.length === 1 ? "" : "s"} to mention; arrows to move, Enter to choose, Escape to close` : ""}
      </p>
    </div>
  );
}
