"use client";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import { formatDateTime } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { callTool, type ToolInput, type ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, TextArea } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState, Section } from "@/components/ui/misc";

type AdComment = ToolOutput<"list_ad_comments">["comments"][number];
type CommentState = NonNullable<ToolInput<"list_ad_comments">["state"]>[number];

const TABS: { state: CommentState | ""; label: string }[] = [
  { state: "", label: "All" },
  { state: "new", label: "New" },
  { state: "hidden", label: "Hidden" },
  { state: "replied", label: "Replied" },
  { state: "deleted", label: "Deleted" },
];
const STATE_TONE = { new: "sky", hidden: "amber", replied: "green", deleted: "rose" } as const;
const STATE_LABEL: Record<CommentState, string> = { new: "New", hidden: "Hidden", replied: "Replied", deleted: "Deleted" };
type BulkKind = "hide" | "unhide" | "delete";
const BULK_TOOL: Record<BulkKind, "hide_ad_comments" | "unhide_ad_comments" | "delete_ad_comments"> = {
  hide: "hide_ad_comments",
  unhide: "unhide_ad_comments",
  delete: "delete_ad_comments",
};

function message(e: unknown): string {
  return e instanceof ApiError ? e.message : "That did not work. Please try again.";
}

export function ModerationWorkspace() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<CommentState | "">("new");
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string[] | null>(null);

  const args = useMemo(() => ({ ...(state ? { state: [state] } : {}), ...(search.trim() ? { search: search.trim() } : {}) }), [state, search]);
  const comments = useInfiniteQuery({
    queryKey: ["ad-comments", args],
    queryFn: ({ pageParam }) => callTool("list_ad_comments", { ...args, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const all = comments.data?.pages.flatMap((p) => p.comments) ?? [];
  const refresh = () => queryClient.invalidateQueries({ predicate: (q) => ["ad-comments", "ad-comment-audit"].includes(String(q.queryKey[0])) });

  const bulk = useMutation({
    mutationFn: ({ kind, ids }: { kind: BulkKind; ids: string[] }) => callTool(BULK_TOOL[kind], { ids }),
    onSuccess: ({ results }, { kind }) => {
      const failed = results.filter((r) => !r.ok);
      const done = results.length - failed.length;
      const verb = kind === "hide" ? "Hidden" : kind === "unhide" ? "Shown again" : "Deleted";
      setNotice(done ? `${verb}: ${done} comment${done === 1 ? "" : "s"}.` : null);
      setProblem(failed.length ? `${failed.length} not changed: ${failed.map((r) => (r.ok ? "" : r.error.message)).join("; ")}` : null);
      setSelected(new Set());
      setConfirmDelete(null);
      refresh();
    },
    onError: (e) => {
      setConfirmDelete(null);
      setProblem(message(e));
    },
  });
  const act = (kind: BulkKind, ids: string[]) => {
    setProblem(null);
    setNotice(null);
    if (kind === "delete") setConfirmDelete(ids);
    else bulk.mutate({ kind, ids });
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const selectable = all.filter((c) => c.state !== "deleted");
  const allSelected = selectable.length > 0 && selectable.every((c) => selected.has(c.id));
  const chosen = [...selected];

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0 space-y-4">
        <div role="group" aria-label="Show comments" className="flex flex-wrap gap-1">
          {TABS.map((t) => (
            <Button
              key={t.label}
              size="sm"
              variant={state === t.state ? "primary" : "secondary"}
              aria-pressed={state === t.state}
              onClick={() => {
                setState(t.state);
                setSelected(new Set());
              }}
            >
              {t.label}
            </Button>
          ))}
        </div>
        <div className="max-w-md">
          <Field
            id="comment-search"
            label="Search comments"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Words in the comment or its author"
          />
        </div>
        {problem && <Alert>{problem}</Alert>}
        {notice && <Alert tone="green">{notice}</Alert>}

        <div className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-slate-50 p-2" role="group" aria-label="Bulk actions">
          <label className="flex items-center gap-2 px-1 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-4"
              checked={allSelected}
              onChange={(e) => setSelected(e.target.checked ? new Set(selectable.map((c) => c.id)) : new Set())}
            />
            Select all shown
          </label>
          <span className="text-sm text-slate-600" aria-live="polite">
            {chosen.length} selected
          </span>
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            <Button size="sm" variant="secondary" disabled={!chosen.length || bulk.isPending} onClick={() => act("hide", chosen)}>
              Hide selected
            </Button>
            <Button size="sm" variant="secondary" disabled={!chosen.length || bulk.isPending} onClick={() => act("unhide", chosen)}>
              Unhide selected
            </Button>
            <Button size="sm" variant="danger-ghost" disabled={!chosen.length || bulk.isPending} onClick={() => act("delete", chosen)}>
              Delete selected
            </Button>
          </div>
        </div>

        {comments.isLoading ? (
          <p className="text-sm text-slate-600">Loading comments…</p>
        ) : comments.isError ? (
          <Alert>{message(comments.error)}</Alert>
        ) : all.length === 0 ? (
          <EmptyState title="No comments here">
            {state || search ? "Nothing matches this view." : "Comments on your published ads show up here within a few minutes."}
          </EmptyState>
        ) : (
          <ul className="space-y-3" aria-label="Comments">
            {all.map((c) => (
              <li key={c.id} aria-label={`Comment by ${c.authorName}`}>
                <CommentCard
                  comment={c}
                  selected={selected.has(c.id)}
                  onSelect={(on) => toggle(c.id, on)}
                  onAct={act}
                  busy={bulk.isPending}
                  onReplied={refresh}
                />
              </li>
            ))}
          </ul>
        )}
        {comments.hasNextPage && (
          <Button variant="secondary" onClick={() => comments.fetchNextPage()} disabled={comments.isFetchingNextPage}>
            {comments.isFetchingNextPage ? "Loading…" : "Load more comments"}
          </Button>
        )}
      </div>
      <RulesEditor />
      <ConfirmDialog
        open={confirmDelete !== null}
        title={`Delete ${confirmDelete?.length ?? 0} comment${confirmDelete?.length === 1 ? "" : "s"}?`}
        confirmLabel="Delete for good"
        busy={bulk.isPending}
        onConfirm={() => confirmDelete && bulk.mutate({ kind: "delete", ids: confirmDelete })}
        onCancel={() => setConfirmDelete(null)}
      >
        They are deleted on the ad platform, with the page&apos;s replies. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}

function CommentCard({
  comment: c,
  selected,
  onSelect,
  onAct,
  busy,
  onReplied,
}: {
  comment: AdComment;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onAct: (kind: BulkKind, ids: string[]) => void;
  busy: boolean;
  onReplied: () => void;
}) {
  const clock = useMemberClock();
  const [replying, setReplying] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reply = useMutation({
    mutationFn: () => callTool("reply_to_ad_comment", { id: c.id, message: text }),
    onSuccess: () => {
      setReplying(false);
      setText("");
      setError(null);
      onReplied();
    },
    onError: (e) => setError(message(e)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reply.mutate();
  };
  const deleted = c.state === "deleted";
  return (
    <Card className="p-3 sm:p-4">
      <div className="flex items-start gap-3">
        {!deleted && (
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0"
            aria-label={`Select comment by ${c.authorName}`}
            checked={selected}
            onChange={(e) => onSelect(e.target.checked)}
          />
        )}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="text-sm font-medium text-slate-900">{c.authorName}</span>
            <Badge tone={STATE_TONE[c.state]}>{STATE_LABEL[c.state]}</Badge>
            <span className="text-xs text-slate-600">{formatDateTime(c.commentedAt, clock)}</span>
            <span className="text-xs text-slate-600">
              {c.platform === "platform_a" ? "Platform A" : "Platform B"} ad {c.adName ? <>&ldquo;{c.adName}&rdquo;</> : c.adExternalId}
            </span>
          </div>
          <p className={`mt-1 break-words text-sm ${deleted ? "text-slate-500 line-through" : "text-slate-800"}`}>{c.message}</p>
          {c.reply && (
            <p className="mt-2 break-words border-l-2 border-indigo-200 pl-3 text-sm text-slate-700">
              <span className="font-medium">Your reply:</span> {c.reply.message}
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            {!deleted && c.state !== "hidden" && (
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => onAct("hide", [c.id])}>
                Hide
              </Button>
            )}
            {c.state === "hidden" && (
              <Button size="sm" variant="secondary" disabled={busy} onClick={() => onAct("unhide", [c.id])}>
                Unhide
              </Button>
            )}
            {!deleted && (
              <Button size="sm" variant="secondary" aria-expanded={replying} onClick={() => setReplying(!replying)}>
                Reply
              </Button>
            )}
            {!deleted && (
              <Button size="sm" variant="danger-ghost" disabled={busy} onClick={() => onAct("delete", [c.id])}>
                Delete
              </Button>
            )}
            <Button size="sm" variant="ghost" aria-expanded={historyOpen} onClick={() => setHistoryOpen(!historyOpen)}>
              History
            </Button>
          </div>
          {replying && (
            <form onSubmit={submit} className="mt-3 space-y-2">
              <label htmlFor={`reply-${c.id}`} className="block text-sm font-medium text-slate-800">
                Reply as your page
              </label>
              <TextArea id={`reply-${c.id}`} rows={2} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} required />
              {error && (
                <p className="text-sm text-rose-700" role="alert">
                  {error}
                </p>
              )}
              <Button type="submit" size="sm" disabled={reply.isPending || !text.trim()}>
                {reply.isPending ? "Sending…" : "Send reply"}
              </Button>
            </form>
          )}
          {historyOpen && <AuditTrail id={c.id} />}
        </div>
      </div>
    </Card>
  );
}

function AuditTrail({ id }: { id: string }) {
  const clock = useMemberClock();
  const audit = useQuery({ queryKey: ["ad-comment-audit", id], queryFn: () => callTool("get_ad_comment_audit", { id }) });
  if (audit.isLoading) return <p className="mt-2 text-sm text-slate-600">Loading history…</p>;
  if (audit.isError) return <Alert>{message(audit.error)}</Alert>;
  const entries = audit.data?.audit ?? [];
  if (!entries.length) return <p className="mt-2 text-sm text-slate-600">Nobody has acted on this comment yet.</p>;
  return (
    <ol className="mt-2 space-y-1 text-sm text-slate-700" aria-label="History">
      {entries.map((a) => (
        <li key={a.id}>
          {formatDateTime(a.createdAt, clock)}: <span className="font-medium">{a.action}</span>{" "}
          {a.actor.kind === "rule" ? (
            <>by the keyword rule &ldquo;{a.actor.keyword}&rdquo;</>
          ) : (
            <>by a member{a.actor.apiKeyId ? " with an API key" : " in the dashboard"}</>
          )}
          {a.detail && <>: {a.detail}</>}
        </li>
      ))}
    </ol>
  );
}

function RulesEditor() {
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const rules = useQuery({ queryKey: ["moderation-rules"], queryFn: () => callTool("list_moderation_rules", { limit: 500 }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["moderation-rules"] });
  const create = useMutation({
    mutationFn: () => callTool("create_moderation_rule", { keyword }),
    onSuccess: () => {
      setKeyword("");
      setError(null);
      refresh();
    },
    onError: (e) => setError(message(e)),
  });
  const remove = useMutation({
    mutationFn: (id: string) => callTool("delete_moderation_rule", { id }),
    onSuccess: refresh,
    onError: (e) => setError(message(e)),
  });
  return (
    <Section id="keyword-rules" title="Keyword rules">
      <p className="text-sm text-slate-600">
        New comments containing one of these words or phrases are hidden as they arrive. Case and accents do not matter; whole words only.
      </p>
      <form
        className="mt-3 flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="min-w-0 flex-1">
          <Field
            id="rule-keyword"
            label="Keyword or phrase"
            value={keyword}
            maxLength={100}
            onChange={(e) => setKeyword(e.target.value)}
            error={error ?? undefined}
          />
        </div>
        <Button type="submit" disabled={!keyword.trim() || create.isPending}>
          Add rule
        </Button>
      </form>
      {rules.isError ? (
        <Alert>{message(rules.error)}</Alert>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200" aria-label="Keyword rules">
          {(rules.data?.rules ?? []).map((r) => (
            <li key={r.id} className="flex items-center justify-between gap-2 py-2">
              <span className="min-w-0 break-words text-sm text-slate-900">{r.keyword}</span>
              <Button size="sm" variant="danger-ghost" aria-label={`Delete rule ${r.keyword}`} disabled={remove.isPending} onClick={() => remove.mutate(r.id)}>
                Delete
              </Button>
            </li>
          ))}
          {rules.data && !rules.data.rules.length && <li className="py-2 text-sm text-slate-600">No rules yet.</li>}
        </ul>
      )}
    </Section>
  );
}
