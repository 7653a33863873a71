import type { ReactNode } from "react";
import { Badge } from "@/components/ui/misc";

/** A credential's scopes as badges; `whenNone` says what no scope means for that kind of credential. */
export function ScopeBadges({ scopes, whenNone }: { scopes: string[]; whenNone: ReactNode }) {
  if (scopes.length === 0) return <>{whenNone}</>;
  return (
    <span className="flex flex-wrap gap-1">
      {scopes.map((s) => (
        <Badge key={s}>{s}</Badge>
      ))}
    </span>
  );
}
