"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/misc";
import { createOwnWorkspace } from "./actions";

export function CreateWorkspaceForm() {
  const [state, action, pending] = useActionState(createOwnWorkspace, {} as { error?: string });
  return (
    <form action={action} className="space-y-4">
      {state.error && <Alert>{state.error}</Alert>}
      <Field id="workspaceName" name="workspaceName" label="Workspace name" required maxLength={100} />
      <Button type="submit" className="w-full" disabled={pending}>
        Create workspace
      </Button>
    </form>
  );
}
