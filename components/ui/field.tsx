import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

const fieldLook =
  "block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600/30 disabled:bg-slate-100 aria-invalid:border-rose-500";

export const inputClass = `${fieldLook} w-full`;

/** A labelled input with an optional hint and error, wired with aria attributes. */
export function Field({
  label,
  hint,
  error,
  id,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode; error?: string; id: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={hint || error ? `${id}-desc` : undefined} className={inputClass} {...props} />
      {(hint || error) && (
        <p id={`${id}-desc`} className={`text-xs ${error ? "text-rose-700" : "text-slate-500"}`}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}

/**
 * A select fills its container unless `className` gives it a width (`w-40`, `w-auto`). Given both, the
 * stylesheet's order would decide, and `w-full` comes last there: the width asked for would be ignored.
 */
export function Select({ className = "", ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  const width = /(^|\s)w-/.test(className) ? "" : "w-full";
  return <select className={`${fieldLook} ${width} pr-8 ${className}`} {...props} />;
}

export function TextArea({ className = "", ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={`${inputClass} ${className}`} {...props} />;
}

/**
 * A labelled select with an optional hint, wired like Field. `className` styles the wrapper (its width in
 * a row of filters, a grid span); the options are the children.
 */
export function SelectField({
  label,
  hint,
  id,
  className = "space-y-1",
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; hint?: ReactNode; id: string }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <Select id={id} aria-describedby={hint ? `${id}-desc` : undefined} {...props}>
        {children}
      </Select>
      {hint && (
        <p id={`${id}-desc`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
