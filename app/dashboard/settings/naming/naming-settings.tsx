"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, apiFetch } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert, Card } from "@/components/ui/misc";

type Convention = { pattern: string | null; fields: string[] };
type Example = { fileName: string; labels: Record<string, string> | null } | null;

const message = (e: unknown) => (e instanceof ApiError ? e.message : "That did not work. Please try again.");
const tool = <T,>(name: string, args: object) => apiFetch<{ result: T }>(`/api/v1/tools/${name}`, { method: "POST", json: args }).then((r) => r.result);

export function NamingSettings({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ["naming"], queryFn: () => tool<{ namingConvention: Convention }>("get_naming_convention", {}) });
  const saved = current.data?.namingConvention.pattern ?? "";
  const [pattern, setPattern] = useState("");
  const [example, setExample] = useState("spring_hookA_9x16.mp4");
  const [result, setResult] = useState<Example>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setPattern(saved), [saved]);

  const save = useMutation({
    mutationFn: (value: string | null) =>
      tool<{ namingConvention: Convention; example: Example }>("set_naming_convention", {
        pattern: value,
        ...(value && example.trim() ? { example: example.trim() } : {}),
      }),
    onSuccess: (r) => {
      setError(null);
      setResult(r.example);
      setNotice(r.namingConvention.pattern ? "Pattern saved. New uploads and imports are labelled with it." : "Pattern cleared.");
      void queryClient.invalidateQueries({ queryKey: ["naming"] });
    },
    onError: (e) => {
      setNotice(null);
      setError(message(e));
    },
  });

  return (
    <Card className="max-w-2xl space-y-5 p-6">
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(pattern.trim() || null);
        }}
      >
        <Field
          id="naming-pattern"
          label="File-name pattern"
          hint="Fields in braces, separated by text: {concept}_{hook}_{aspect}. {aspect} matches ratios such as 9x16, 4x5 and 1x1. The extension is ignored."
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          placeholder="{concept}_{hook}_{aspect}"
          disabled={!canEdit}
          maxLength={200}
        />
        <Field
          id="naming-example"
          label="Try a file name"
          hint="Shown parsed when you save."
          value={example}
          onChange={(e) => setExample(e.target.value)}
          disabled={!canEdit}
          maxLength={255}
        />
        {canEdit ? (
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={save.isPending}>
              Save pattern
            </Button>
            {saved && (
              <Button type="button" variant="secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>
                Clear pattern
              </Button>
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-600">Only members who can edit the library change the pattern.</p>
        )}
      </form>
      <div aria-live="polite" className="space-y-3">
        {error && <Alert>{error}</Alert>}
        {notice && <Alert tone="green">{notice}</Alert>}
        {result && (
          <div data-testid="naming-example">
            <p className="text-sm font-medium text-slate-800">{result.fileName}</p>
            {result.labels ? (
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {Object.entries(result.labels).map(([field, value]) => (
                  <div key={field} className="contents">
                    <dt className="text-slate-500">{field}</dt>
                    <dd className="break-all text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="mt-1 text-sm text-slate-600">This name does not fit the pattern: such files get no labels.</p>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
