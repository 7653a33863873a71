"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { TextArea } from "@/components/ui/field";
import { Alert, Card } from "@/components/ui/misc";
import { saveAiSettings } from "./actions";

interface Turn {
  role: "user" | "assistant";
  content: string;
  credits?: number;
  toolRuns?: { name: string; ok: boolean; error: string | null }[];
}

interface Pending {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

type StreamLine =
  | { type: "status"; message: string }
  | { type: "text"; delta: string }
  | { type: "cost"; credits: number; reservedCredits: number }
  | { type: "done"; result: { reply: string; pending: Pending | null; toolRuns: Turn["toolRuns"]; cost: { credits: number } } }
  | { type: "error"; error: { code: string; message: string } };

/** Reads the stream route's newline-delimited JSON as it arrives. */
async function* readLines(response: Response): AsyncGenerator<StreamLine> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffered += decoder.decode(value, { stream: !done });
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as StreamLine;
    }
    if (done) return;
  }
}

export function AssistantChat({ connected }: { connected: boolean }) {
  const router = useRouter();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState("");
  const [streaming, setStreaming] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const busy = streaming !== null;
  /** The latest ask: an earlier one that is still closing its stream must not clear this one's progress. */
  const latestAsk = useRef(0);

  async function ask(history: Turn[], confirmed?: Pending) {
    const askId = ++latestAsk.current;
    setError(null);
    setPending(null);
    setStreaming("");
    setStatus("Starting");
    let text = "";
    try {
      const response = await fetch("/dashboard/assistant/stream", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ mode: "chat", messages: history.map(({ role, content }) => ({ role, content })), ...(confirmed ? { confirmed } : {}) }),
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => null);
        throw new Error(body?.error?.message ?? `The assistant answered ${response.status}`);
      }
      for await (const line of readLines(response)) {
        if (line.type === "status") setStatus(line.message);
        else if (line.type === "text") setStreaming((text += line.delta));
        else if (line.type === "cost") setStatus(`Charged ${line.credits} of ${line.reservedCredits} reserved credits`);
        else if (line.type === "error") throw new Error(line.error.message);
        else if (line.type === "done") {
          const { reply, pending: waiting, toolRuns, cost } = line.result;
          setTurns([
            ...history,
            { role: "assistant", content: reply || (waiting ? `I would like to run ${waiting.name}.` : "(no answer)"), credits: cost.credits, toolRuns },
          ]);
          setPending(waiting);
          // In the same render as the answer's turn, so the answer never shows twice (streamed and final).
          setStreaming(null);
          setStatus("");
        }
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      if (latestAsk.current === askId) {
        setStreaming(null);
        setStatus("");
      }
      router.refresh();
    }
  }

  function send(event: FormEvent) {
    event.preventDefault();
    const content = draft.trim();
    if (!content || busy) return;
    const history: Turn[] = [...turns, { role: "user", content }];
    setTurns(history);
    setDraft("");
    void ask(history);
  }

  return (
    <Card className="flex min-h-96 flex-col p-0">
      <h2 className="border-b border-slate-200 px-5 py-3 text-sm font-medium text-slate-700">Chat</h2>
      <ol className="flex-1 space-y-4 overflow-y-auto px-5 py-4" aria-label="Conversation" aria-live="polite">
        {turns.length === 0 && !busy && (
          <li className="text-sm text-slate-600">
            Ask about your library, ads or performance, for example: “Which creatives are winning this month, and why?”
          </li>
        )}
        {turns.map((turn, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: turns are only ever appended, so a turn's index is its identity
            key={i}
            className={
              turn.role === "user" ? "ml-auto max-w-[85%] rounded-lg bg-indigo-50 px-3 py-2 text-sm text-slate-900" : "max-w-[95%] text-sm text-slate-900"
            }
          >
            <span className="sr-only">{turn.role === "user" ? "You:" : "Assistant:"}</span>
            <p className="whitespace-pre-wrap break-words">{turn.content}</p>
            {turn.toolRuns && turn.toolRuns.length > 0 && (
              <p className="mt-1 text-xs text-slate-600">Looked up: {turn.toolRuns.map((r) => `${r.name}${r.ok ? "" : " (failed)"}`).join(", ")}</p>
            )}
            {turn.credits !== undefined && (
              <p className="mt-1 text-xs text-slate-600" data-testid="answer-cost">
                Cost: {turn.credits} {turn.credits === 1 ? "credit" : "credits"}
              </p>
            )}
          </li>
        ))}
        {busy && (
          <li className="max-w-[95%] text-sm text-slate-900">
            <p className="whitespace-pre-wrap break-words" data-testid="streaming-answer">
              {streaming}
            </p>
            <p role="status" className="mt-1 flex items-center gap-2 text-xs text-slate-600">
              <span aria-hidden className="inline-block size-2 animate-pulse rounded-full bg-indigo-500" />
              {status}
            </p>
          </li>
        )}
      </ol>
      {pending && (
        <div className="mx-5 mb-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            The assistant wants to run <code className="font-mono">{pending.name}</code>, which cannot be undone or spends money:
          </p>
          <pre className="mt-2 max-h-40 overflow-auto rounded bg-white p-2 text-xs text-slate-800">{JSON.stringify(pending.arguments, null, 2)}</pre>
          <div className="mt-2 flex gap-2">
            <Button type="button" variant="danger" size="sm" onClick={() => void ask(turns, pending)}>
              Confirm and run
            </Button>
            <Button type="button" variant="secondary" size="sm" onClick={() => setPending(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {error && (
        <div className="mx-5 mb-3">
          <Alert>{error}</Alert>
        </div>
      )}
      <form onSubmit={send} className="flex flex-col gap-2 border-t border-slate-200 p-4 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="assistant-message" className="sr-only">
            Message
          </label>
          <TextArea
            id="assistant-message"
            rows={2}
            maxLength={4000}
            value={draft}
            placeholder={connected ? "Ask the assistant" : "Configure an AI provider to chat"}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) send(e);
            }}
          />
        </div>
        <Button type="submit" disabled={busy || !draft.trim()}>
          {busy ? "Answering…" : "Send"}
        </Button>
      </form>
    </Card>
  );
}

export function AssistantSettings(initial: { brandVoice: string; namingConvention: string }) {
  const [brandVoice, setBrandVoice] = useState(initial.brandVoice);
  const [namingConvention, setNamingConvention] = useState(initial.namingConvention);
  const [message, setMessage] = useState<{ tone: "green" | "rose"; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const answer = await saveAiSettings({ brandVoice, namingConvention });
    setSaving(false);
    setMessage(answer.ok ? { tone: "green", text: "Saved." } : { tone: "rose", text: answer.message });
  }
  return (
    <Card className="p-5">
      <h2 className="text-sm font-medium text-slate-600">What the assistant follows</h2>
      <form onSubmit={save} className="mt-3 space-y-3">
        <div className="space-y-1">
          <label htmlFor="brand-voice" className="block text-sm font-medium text-slate-800">
            Brand voice
          </label>
          <TextArea
            id="brand-voice"
            rows={3}
            maxLength={2000}
            value={brandVoice}
            onChange={(e) => setBrandVoice(e.target.value)}
            aria-describedby="brand-voice-desc"
          />
          <p id="brand-voice-desc" className="text-xs text-slate-600">
            Tone, words to use and to avoid; used when drafting copy.
          </p>
        </div>
        <div className="space-y-1">
          <label htmlFor="naming-convention" className="block text-sm font-medium text-slate-800">
            Naming convention
          </label>
          <TextArea
            id="naming-convention"
            rows={2}
            maxLength={500}
            value={namingConvention}
            onChange={(e) => setNamingConvention(e.target.value)}
            aria-describedby="naming-convention-desc"
          />
          <p id="naming-convention-desc" className="text-xs text-slate-600">
            For example {"{date}_{platform}_{product}_{angle}"}; used when suggesting names.
          </p>
        </div>
        <Button type="submit" variant="secondary" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
      </form>
    </Card>
  );
}
