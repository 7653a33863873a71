"use client";
import { useMemberClock } from "@/components/dashboard/time-zone";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { resultOf } from "@/components/dashboard/tool-call";
import { ApiError } from "@/components/dashboard/api";
import { formatRelative } from "@/components/dashboard/format";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert, Card, EmptyState } from "@/components/ui/misc";
import { callBoardsTool } from "./actions";
import type { BoardSummary } from "@/lib/dashboard/boards-page";

export function BoardsList({
  initialBoards,
  initialCursor,
  pageSize,
  canWrite,
}: {
  initialBoards: BoardSummary[];
  /** Where the next page of boards starts; null when the list is whole. */
  initialCursor: string | null;
  pageSize: number;
  canWrite: boolean;
}) {
  const clock = useMemberClock();
  const [boards, setBoards] = useState(initialBoards);
  const [cursor, setCursor] = useState(initialCursor);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreProblem, setMoreProblem] = useState<string | null>(null);
  const router = useRouter();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const { board } = resultOf(await callBoardsTool("create_board", { name }));
      router.push(`/dashboard/boards/${board.id}`);
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : "That did not work. Please try again.");
      setBusy(false);
    }
  }

  async function showMore() {
    if (!cursor) return;
    setLoadingMore(true);
    setMoreProblem(null);
    try {
      const page = resultOf(await callBoardsTool("list_boards", { limit: pageSize, cursor }));
      setBoards((shown) => [...shown, ...page.boards.filter((b) => !shown.some((s) => s.id === b.id))]);
      setCursor(page.nextCursor);
    } catch (err) {
      setMoreProblem(err instanceof ApiError ? err.message : "Could not load more boards. Please try again.");
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <div className="space-y-6">
      {canWrite && (
        <Card className="p-4">
          <form onSubmit={create} className="flex flex-wrap items-end gap-3">
            <div className="min-w-56 flex-1">
              <Field
                id="board-name"
                label="New board"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={120}
                placeholder="Q3 hooks review"
              />
            </div>
            <Button type="submit" disabled={busy || !name.trim()}>
              Create board
            </Button>
          </form>
          {problem && (
            <div className="mt-3">
              <Alert>{problem}</Alert>
            </div>
          )}
        </Card>
      )}
      {boards.length === 0 ? (
        <EmptyState title="No boards yet">
          {canWrite ? "Create one above, then add creatives, notes and frames to it." : "Boards your team makes appear here."}
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Boards">
          {boards.map((b) => (
            <li key={b.id}>
              <Link
                href={`/dashboard/boards/${b.id}`}
                className="block rounded-lg border border-slate-200 bg-white p-4 shadow-xs hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              >
                <span className="block truncate font-medium text-slate-900">{b.name}</span>
                <span className="mt-1 block text-sm text-slate-600">
                  {b.itemCount} {b.itemCount === 1 ? "item" : "items"} · changed {formatRelative(b.updatedAt, Date.now(), clock)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {moreProblem && <Alert>{moreProblem}</Alert>}
      {cursor && (
        <Button variant="secondary" onClick={showMore} disabled={loadingMore}>
          {loadingMore ? "Loading…" : "Show more boards"}
        </Button>
      )}
    </div>
  );
}
