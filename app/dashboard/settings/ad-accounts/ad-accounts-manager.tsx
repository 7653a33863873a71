"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "@/components/dashboard/api";
import { callTool, type ToolOutput } from "@/components/dashboard/tool-call";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert, Badge, Card, Section, TableHead } from "@/components/ui/misc";

type Account = ToolOutput<"list_connected_ad_accounts">["adAccounts"][number];
type Platform = Account["platform"];

const PLATFORMS: { id: Platform; label: string; idLabel: string }[] = [
  { id: "platform_a", label: "Platform A", idLabel: "Ad account" },
  { id: "platform_b", label: "Platform B", idLabel: "Advertiser" },
];
const message = (e: unknown) => (e instanceof ApiError ? e.message : "That did not work. Please try again.");

function StatusBadge({ account }: { account: Account }) {
  if (account.status === "active") return <Badge tone="green">Active</Badge>;
  if (account.status === "needs_reconnect") return <Badge tone="amber">Needs reconnecting</Badge>;
  return <Badge>Disconnected</Badge>;
}

/** A live Meta account's Page identity: loads the Pages its token may publish as (list_ad_account_pages) and saves the choice. */
function PageChooser({ account, onSaved, onError }: { account: Account; onSaved: (text: string) => void; onError: (text: string) => void }) {
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(account.pageId ?? "");
  const pages = useQuery({ queryKey: ["ad-account-pages", account.id], queryFn: () => callTool("list_ad_account_pages", { id: account.id }), enabled: open });
  const save = useMutation({
    mutationFn: () => callTool("set_ad_account_page", { id: account.id, pageId: choice }),
    onSuccess: ({ page }) => {
      setOpen(false);
      onSaved(`${account.name} now publishes as ${page.name}.`);
    },
    onError: (e) => onError(message(e)),
  });
  if (!open)
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Change Page of ${account.name}`}>
        Change Page
      </Button>
    );
  if (pages.isPending) return <p className="text-sm text-slate-600">Loading Pages…</p>;
  if (pages.isError) return <Alert>{message(pages.error)}</Alert>;
  const selectId = `page-${account.id}`;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <label htmlFor={selectId} className="sr-only">
        Page for {account.name}
      </label>
      <select
        id={selectId}
        value={choice}
        onChange={(e) => setChoice(e.target.value)}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-900"
      >
        {!account.pageId && <option value="">Choose a Page</option>}
        {pages.data.pages.map((page) => (
          <option key={page.id} value={page.id}>
            {page.name}
          </option>
        ))}
      </select>
      <Button size="sm" disabled={!choice || save.isPending} onClick={() => save.mutate()}>
        Save Page
      </Button>
      <Button size="sm" variant="secondary" onClick={() => setOpen(false)}>
        Cancel
      </Button>
    </div>
  );
}

export function AdAccountsManager({
  canManage,
  appConfigured,
  flash,
}: {
  canManage: boolean;
  appConfigured: Record<Platform, boolean>;
  flash: { connected: number | null; error: string | null };
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(flash.error);
  const [notice, setNotice] = useState<string | null>(
    flash.connected !== null ? `Connected ${flash.connected} ad account${flash.connected === 1 ? "" : "s"}.` : null,
  );
  const [disconnecting, setDisconnecting] = useState<Account | null>(null);
  const list = useQuery({ queryKey: ["ad-accounts"], queryFn: () => callTool("list_connected_ad_accounts") });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["ad-accounts"] });
  const makeDefault = useMutation({
    mutationFn: (a: Account) => callTool("set_default_ad_account", { id: a.id }),
    onSuccess: ({ adAccount }) => {
      setError(null);
      setNotice(`${adAccount.name} is now the default ${adAccount.platform} account.`);
      void refresh();
    },
    onError: (e) => setError(message(e)),
  });
  const disconnect = useMutation({
    mutationFn: (a: Account) => callTool("disconnect_ad_account", { id: a.id }),
    onSuccess: ({ account }) => {
      setDisconnecting(null);
      setError(null);
      setNotice(`${account.name} was disconnected; its access token is deleted.`);
      void refresh();
    },
    onError: (e) => {
      setDisconnecting(null);
      setError(message(e));
    },
  });

  return (
    <div className="space-y-8">
      {error && <Alert>{error}</Alert>}
      {notice && <Alert tone="green">{notice}</Alert>}
      {list.isPending && <p className="text-sm text-slate-600">Loading…</p>}
      {list.isError && <Alert>{message(list.error)}</Alert>}
      {list.data &&
        PLATFORMS.map((p) => {
          const accounts = list.data.adAccounts.filter((a) => a.platform === p.id);
          return (
            <Section key={p.id} id={`accounts-${p.id}`} title={p.label}>
              <Card className="overflow-x-auto">
                <table aria-label={`${p.label} ad accounts`} className="w-full text-left text-sm">
                  <TableHead columns={[p.idLabel, "Status"]} actions={canManage} />
                  <tbody className="divide-y divide-slate-100">
                    {accounts.map((a) => (
                      <tr key={a.id}>
                        <td className="px-4 py-3">
                          <div className="flex flex-wrap items-center gap-2">
                            <span className="font-medium text-slate-900">{a.name}</span>
                            {a.sandbox ? <Badge tone="sky">Sandbox</Badge> : <Badge tone="indigo">Live</Badge>}
                            {a.isDefault && <Badge tone="green">Default</Badge>}
                          </div>
                          <p className="mt-0.5 font-mono text-xs text-slate-600">{a.externalAccountId}</p>
                          <p className="mt-0.5 text-xs text-slate-600">
                            {a.currency ?? "—"} · {a.timeZone ?? "—"}
                            {a.platform === "platform_a" && !a.sandbox ? ` · Page ${a.pageId ?? "not chosen"}` : ""}
                          </p>
                        </td>
                        <td className="px-4 py-3">
                          <StatusBadge account={a} />
                          {a.status === "needs_reconnect" && a.statusReason && <p className="mt-1 max-w-xs text-xs text-slate-600">{a.statusReason}</p>}
                        </td>
                        {canManage && (
                          <td className="px-4 py-3 text-right">
                            <div className="flex flex-wrap justify-end gap-2">
                              {a.platform === "platform_a" && !a.sandbox && a.status === "active" && (
                                <PageChooser
                                  account={a}
                                  onSaved={(text) => {
                                    setError(null);
                                    setNotice(text);
                                    void refresh();
                                  }}
                                  onError={setError}
                                />
                              )}
                              {!a.isDefault && a.status === "active" && (
                                <Button
                                  size="sm"
                                  variant="secondary"
                                  disabled={makeDefault.isPending}
                                  onClick={() => makeDefault.mutate(a)}
                                  aria-label={`Make default: ${a.name}`}
                                >
                                  Make default
                                </Button>
                              )}
                              {!a.sandbox && a.status !== "disconnected" && (
                                <Button size="sm" variant="danger-ghost" onClick={() => setDisconnecting(a)} aria-label={`Disconnect ${a.name}`}>
                                  Disconnect
                                </Button>
                              )}
                            </div>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Card>
              {canManage && (
                <div className="mt-3 flex flex-wrap items-center gap-3">
                  {appConfigured[p.id] ? (
                    <a href={`/api/ad-accounts/oauth/${p.id}/start`} className={buttonClass("primary", "sm")}>
                      Connect {p.label} account
                    </a>
                  ) : (
                    <>
                      <Button size="sm" disabled aria-describedby={`connect-${p.id}-note`}>
                        Connect {p.label} account
                      </Button>
                      <p id={`connect-${p.id}-note`} className="text-sm text-slate-600">
                        Not available yet: the operator configures the {p.label} app ({p.id === "platform_a" ? "PLATFORM_A_APP_ID" : "PLATFORM_B_APP_ID"} and
                        its secret), or connects an account with <code className="text-xs">adaccount connect</code>.
                      </p>
                    </>
                  )}
                </div>
              )}
            </Section>
          );
        })}
      <ConfirmDialog
        open={disconnecting !== null}
        title={`Disconnect ${disconnecting?.name ?? ""}?`}
        confirmLabel="Disconnect"
        busy={disconnect.isPending}
        onConfirm={() => disconnecting && disconnect.mutate(disconnecting)}
        onCancel={() => setDisconnecting(null)}
      >
        Its access token is deleted and nothing more is published to it. {disconnecting?.isDefault ? "The platform's next account becomes the default." : ""}
      </ConfirmDialog>
    </div>
  );
}
