import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";

export interface AiUsageReport {
  /** Remaining credits: shown to owners only, as `credits` on GET /api/v1/me. */
  balance: number | null;
  days: number;
  totalCredits: number;
  calls: number;
  byMember: { userId: string; name: string | null; email: string; credits: number; calls: number }[];
  byFeature: { feature: string; credits: number; calls: number }[];
  recent: {
    id: string;
    userId: string;
    feature: string;
    model: string;
    status: "reserved" | "captured" | "released";
    reservedCredits: number;
    chargedCredits: number;
    inputTokens: number | null;
    outputTokens: number | null;
    error: string | null;
    createdAt: string;
  }[];
}

/**
 * Credits spent over the last `days`, by member and by feature, and the latest calls. Owners and admins see
 * the whole workspace; other members see their own usage.
 */
export async function aiUsage(principal: Principal, input: { days?: number }): Promise<{ usage: AiUsageReport }> {
  const days = input.days ?? 30;
  const db = getDb();
  const everyone = principal.role === "owner" || principal.role === "admin";
  const where = {
    workspaceId: principal.workspaceId,
    createdAt: { gte: new Date(Date.now() - days * 86_400_000) },
    ...(everyone ? {} : { userId: principal.userId }),
  };
  const [byUser, byFeature, recent, workspace] = await Promise.all([
    db.aiUsage.groupBy({ by: ["userId"], where, _sum: { chargedCredits: true }, _count: { _all: true } }),
    db.aiUsage.groupBy({ by: ["feature"], where, _sum: { chargedCredits: true }, _count: { _all: true } }),
    db.aiUsage.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 20 }),
    db.workspace.findUnique({ where: { id: principal.workspaceId }, select: { credits: true } }),
  ]);
  const users = await db.user.findMany({ where: { id: { in: byUser.map((u) => u.userId) } }, select: { id: true, name: true, email: true } });
  const byMember = byUser
    .map((u) => {
      const user = users.find((x) => x.id === u.userId);
      return { userId: u.userId, name: user?.name ?? null, email: user?.email ?? "(former member)", credits: u._sum.chargedCredits ?? 0, calls: u._count._all };
    })
    .sort((a, b) => b.credits - a.credits || a.userId.localeCompare(b.userId));
  const features = byFeature
    .map((f) => ({ feature: f.feature, credits: f._sum.chargedCredits ?? 0, calls: f._count._all }))
    .sort((a, b) => b.credits - a.credits || a.feature.localeCompare(b.feature));
  return {
    usage: {
      balance: principal.role === "owner" ? (workspace?.credits ?? 0) : null,
      days,
      totalCredits: features.reduce((s, f) => s + f.credits, 0),
      calls: features.reduce((s, f) => s + f.calls, 0),
      byMember,
      byFeature: features,
      recent: recent.map((r) => ({
        id: r.id,
        userId: r.userId,
        feature: r.feature,
        model: r.model,
        status: r.status,
        reservedCredits: r.reservedCredits,
        chargedCredits: r.chargedCredits,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        error: r.error,
        createdAt: r.createdAt.toISOString(),
      })),
    },
  };
}
