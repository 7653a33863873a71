"use client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, Select } from "@/components/ui/field";
import { Alert, Badge, Card, Section, TableHead } from "@/components/ui/misc";
import { formatDate } from "@/components/dashboard/format";
import { useMemberClock } from "@/components/dashboard/time-zone";
import type { InviteSummary, MemberSummary } from "@/lib/read-models/team";
import { inviteAction, removeMemberAction, revokeInviteAction, updateMemberAction } from "./actions";

type Role = MemberSummary["role"];
type Folder = { id: string; name: string; parentId: string | null };

function RoleSelect({ id, roles, value, onChange }: { id: string; roles: Role[]; value: Role; onChange: (role: Role) => void }) {
  return (
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value as Role)}>
      {roles.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </Select>
  );
}

function FolderPicker({ folders, value, onChange, idPrefix }: { folders: Folder[]; value: string[]; onChange: (v: string[]) => void; idPrefix: string }) {
  if (folders.length === 0) return <p className="text-xs text-slate-500">No folders yet: access covers the whole library.</p>;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Folder access</legend>
      <p className="text-xs text-slate-500">None ticked: every folder.</p>
      <div className="mt-1 flex max-h-32 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
        {folders.map((f) => (
          <label key={f.id} htmlFor={`${idPrefix}-${f.id}`} className="flex items-center gap-1.5 text-sm">
            <input
              id={`${idPrefix}-${f.id}`}
              type="checkbox"
              className="accent-indigo-600"
              checked={value.includes(f.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, f.id] : value.filter((x) => x !== f.id))}
            />
            {f.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const ROLE_OPTIONS: Role[] = ["owner", "admin", "editor", "viewer"];

export function TeamManager({
  members,
  invites,
  folders,
  canManage,
  isOwner,
  currentUserId,
  emailTransport,
}: {
  members: MemberSummary[];
  invites: InviteSummary[];
  folders: Folder[];
  canManage: boolean;
  isOwner: boolean;
  /** "outbox": no SMTP server is configured, so invite emails wait in the server's outbox instead of being sent. */
  emailTransport: "smtp" | "outbox";
  currentUserId: string;
}) {
  const clock = useMemberClock();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [inviteFolders, setInviteFolders] = useState<string[]>([]);
  const [inviteLink, setInviteLink] = useState<{ email: string; url: string; emailed: boolean } | null>(null);
  const [editing, setEditing] = useState<{ userId: string; role: Role; folderIds: string[] } | null>(null);
  const [removing, setRemoving] = useState<MemberSummary | null>(null);
  const folderName = (id: string) => folders.find((f) => f.id === id)?.name ?? "deleted folder";
  const grantable = ROLE_OPTIONS.filter((r) => r !== "owner" || isOwner);

  const invite = (e: React.FormEvent) => {
    e.preventDefault();
    start(async () => {
      const result = await inviteAction({ email, role, folderIds: inviteFolders });
      if (!result.ok) return setError(result.error);
      setError(null);
      setInviteLink({ email, url: result.data.url, emailed: result.data.emailed });
      setEmail("");
      setInviteFolders([]);
    });
  };
  const saveMember = () =>
    start(async () => {
      const result = await updateMemberAction(editing!.userId, { role: editing!.role, folderIds: editing!.folderIds });
      if (!result.ok) return setError(result.error);
      setError(null);
      setEditing(null);
    });

  return (
    <div className="space-y-8">
      {error && <Alert>{error}</Alert>}
      {canManage && (
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Invite a teammate</h2>
          <form onSubmit={invite} className="mt-4 space-y-4">
            <div className="grid gap-4 sm:grid-cols-[1fr_180px]">
              <Field
                id="invite-email"
                type="email"
                label="Email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="teammate@company.com"
              />
              <div className="space-y-1">
                <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">
                  Role
                </label>
                <RoleSelect id="invite-role" roles={grantable} value={role} onChange={setRole} />
              </div>
            </div>
            <FolderPicker folders={folders} value={inviteFolders} onChange={setInviteFolders} idPrefix="invite-folder" />
            <Button type="submit" disabled={pending || !email}>
              {pending ? "Inviting…" : "Create invite link"}
            </Button>
          </form>
          {inviteLink && (
            <div className="mt-5 rounded-md border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900">
              <p>
                {inviteLink.emailed && emailTransport === "smtp" ? (
                  <>
                    We emailed the invite to <strong>{inviteLink.email}</strong>. You can also send them this link yourself; it works once, for 7 days.
                  </>
                ) : inviteLink.emailed ? (
                  <>
                    No mail server is configured, so the invite email to <strong>{inviteLink.email}</strong> waits in the server's outbox: send them this link
                    yourself. It works once, for 7 days.
                  </>
                ) : (
                  <>
                    The email to <strong>{inviteLink.email}</strong> could not be sent: send them this link yourself. It works once, for 7 days.
                  </>
                )}
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <code
                  data-testid="invite-link"
                  className="min-w-0 flex-1 break-all rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs text-slate-900"
                >
                  {inviteLink.url}
                </code>
                <CopyButton value={inviteLink.url} label="Copy link" />
              </div>
            </div>
          )}
        </Card>
      )}

      <Section id="members" title={<>Members ({members.length})</>}>
        <Card className="overflow-x-auto">
          <table className="stack-table w-full text-left text-sm">
            <TableHead columns={["Member", "Role", "Folders", "Two-factor", "Joined"]} actions />
            <tbody className="divide-y divide-slate-100">
              {members.map((m) => (
                <tr key={m.userId} data-testid="member-row">
                  <td data-label="Member" className="px-4 py-3">
                    <p className="font-medium text-slate-900">
                      {m.name} {m.userId === currentUserId && <span className="text-xs font-normal text-slate-500">(you)</span>}
                    </p>
                    <p className="text-xs text-slate-500">{m.email}</p>
                  </td>
                  {editing?.userId === m.userId ? (
                    <td data-label="Access" colSpan={3} className="px-4 py-3">
                      <div className="space-y-3">
                        <div className="max-w-[180px]">
                          <label htmlFor={`role-${m.userId}`} className="sr-only">
                            Role of {m.name}
                          </label>
                          <RoleSelect id={`role-${m.userId}`} roles={grantable} value={editing.role} onChange={(r) => setEditing({ ...editing, role: r })} />
                        </div>
                        <FolderPicker
                          folders={folders}
                          value={editing.folderIds}
                          onChange={(folderIds) => setEditing({ ...editing, folderIds })}
                          idPrefix={`member-${m.userId}`}
                        />
                      </div>
                    </td>
                  ) : (
                    <>
                      <td data-label="Role" className="px-4 py-3">
                        <Badge tone={m.role === "owner" ? "indigo" : m.role === "admin" ? "sky" : "slate"}>{m.role}</Badge>
                      </td>
                      <td data-label="Folders" className="px-4 py-3 text-slate-700">
                        {m.folderIds.length ? m.folderIds.map(folderName).join(", ") : "All folders"}
                      </td>
                      <td data-label="Two-factor" className="px-4 py-3">
                        {m.twoFactorEnabled ? <Badge tone="green">on</Badge> : <span className="text-slate-500">off</span>}
                      </td>
                    </>
                  )}
                  <td data-label="Joined" className="whitespace-nowrap px-4 py-3 text-slate-700">
                    {formatDate(m.joinedAt, clock)}
                  </td>
                  <td className="whitespace-nowrap px-4 py-3 text-right">
                    {canManage &&
                      (m.role !== "owner" || isOwner) &&
                      (editing?.userId === m.userId ? (
                        <span className="flex justify-end gap-2">
                          <Button size="sm" onClick={saveMember} disabled={pending}>
                            Save
                          </Button>
                          <Button size="sm" variant="ghost" onClick={() => setEditing(null)}>
                            Cancel
                          </Button>
                        </span>
                      ) : (
                        <span className="flex justify-end gap-2">
                          <Button
                            size="sm"
                            variant="ghost"
                            onClick={() => setEditing({ userId: m.userId, role: m.role, folderIds: m.folderIds })}
                            aria-label={`Edit ${m.name}`}
                          >
                            Edit
                          </Button>
                          {m.userId !== currentUserId && (
                            <Button size="sm" variant="danger-ghost" onClick={() => setRemoving(m)} aria-label={`Remove ${m.name}`}>
                              Remove
                            </Button>
                          )}
                        </span>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </Section>

      {canManage && invites.length > 0 && (
        <Section id="invites" title="Pending invites">
          <Card>
            <ul className="divide-y divide-slate-100">
              {invites.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                  <span>
                    <span className="font-medium text-slate-900">{i.email}</span> <Badge>{i.role}</Badge>
                    <span className="ml-2 text-xs text-slate-500">
                      invited by {i.invitedBy}, expires {formatDate(i.expiresAt, clock)}
                    </span>
                  </span>
                  <Button size="sm" variant="danger-ghost" onClick={() => start(async () => void (await revokeInviteAction(i.id)))}>
                    Withdraw
                  </Button>
                </li>
              ))}
            </ul>
          </Card>
        </Section>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ""}?`}
        confirmLabel="Remove member"
        busy={pending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          start(async () => {
            const result = await removeMemberAction(removing!.userId);
            setError(result.ok ? null : result.error);
            setRemoving(null);
          })
        }
      >
        They lose access to this workspace at once, and API keys they created stop working.
      </ConfirmDialog>
    </div>
  );
}
