"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Alert, Badge, Card, EmptyState, Section, TableHead } from "@/components/ui/misc";
import { ScopeBadges } from "./scope-badges";
import { formatDate, formatRelative } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import type { ConnectedApp } from "@/lib/dashboard/account";
import { revokeConnectedAppAction } from "./actions";

/** Apps connected by OAuth (MCP clients): one row per consent, Revoke ends all its tokens. */
export function ConnectedApps({ apps, currentUserId }: { apps: ConnectedApp[]; currentUserId: string }) {
  const clock = useMemberClock();
  const [pending, start] = useTransition();
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [error, setError] = useState<string | null>(null);
  const revoke = () =>
    start(async () => {
      const result = await revokeConnectedAppAction(revoking!.id);
      setError(result.ok ? null : result.error);
      setRevoking(null);
    });
  return (
    <Section id="connected-apps" title="Connected apps">
      {error && <Alert>{error}</Alert>}
      {apps.length === 0 ? (
        <EmptyState title="No connected apps">Assistants that connect to Adloom’s MCP endpoint by OAuth appear here after you allow them.</EmptyState>
      ) : (
        <Card className="overflow-x-auto">
          <table className="stack-table w-full text-left text-sm">
            <TableHead columns={["App", "Workspace", "Scopes", "Connected by", "Connected", "Last used"]} actions />
            <tbody className="divide-y divide-slate-100">
              {apps.map((a) => (
                <tr key={a.id} data-testid="connected-app-row">
                  <td data-label="App" className="px-4 py-3 font-medium text-slate-900">
                    {a.clientName}
                  </td>
                  <td data-label="Workspace" className="px-4 py-3 text-slate-700">
                    {a.workspaceName}
                  </td>
                  <td data-label="Scopes" className="px-4 py-3">
                    <ScopeBadges scopes={a.scopes} whenNone={<Badge>read only</Badge>} />
                  </td>
                  <td data-label="Connected by" className="px-4 py-3 text-slate-700">
                    {a.user.id === currentUserId ? "You" : a.user.name}
                  </td>
                  <td data-label="Connected" className="whitespace-nowrap px-4 py-3 text-slate-700">
                    {formatDate(a.createdAt, clock)}
                  </td>
                  <td data-label="Last used" className="whitespace-nowrap px-4 py-3 text-slate-700" suppressHydrationWarning>
                    {a.lastUsedAt ? formatRelative(a.lastUsedAt, Date.now(), clock) : "Never"}
                  </td>
                  <td className="px-4 py-3 text-right">
                    <Button variant="danger-ghost" size="sm" onClick={() => setRevoking(a)} aria-label={`Revoke ${a.clientName}`}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.clientName ?? ""}”?`}
        confirmLabel="Revoke access"
        busy={pending}
        onCancel={() => setRevoking(null)}
        onConfirm={revoke}
      >
        Its access and refresh tokens stop working immediately; the app must ask for consent again.
      </ConfirmDialog>
    </Section>
  );
}
