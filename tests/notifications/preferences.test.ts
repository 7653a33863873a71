/**
 * A member's email choices changed twice at the same moment (two tabs, the dashboard and a script): both changes
 * hold. Runs on PostgreSQL too, where the two requests truly run at once.
 */
import { describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";

describe("notification preferences", () => {
  it("two changes sent at once both hold", async () => {
    const t = await createTenant();
    const editor = await createMemberKey(t, { role: "editor" });
    const off = async () =>
      (await toolResult(editor.key, "get_my_notification_preferences", {})).preferences.filter((p: any) => !p.email).map((p: any) => p.kind);
    for (const [a, b] of [
      ["task_due", "mention"],
      ["review_approved", "rule_triggered"],
    ]) {
      await Promise.all([
        toolResult(editor.key, "set_my_notification_preferences", { email: { [a!]: false } }),
        toolResult(editor.key, "set_my_notification_preferences", { email: { [b!]: false } }),
      ]);
    }
    expect((await off()).sort()).toEqual(["mention", "review_approved", "rule_triggered", "task_due"]);
    await Promise.all([
      toolResult(editor.key, "set_my_notification_preferences", { email: { mention: true } }),
      toolResult(editor.key, "set_my_notification_preferences", { email: { task_due: true, review_approved: false } }),
    ]);
    expect((await off()).sort()).toEqual(["review_approved", "rule_triggered"]);
  });
});
