/** One lead form the platform fails to read does not stop the others; its error is recorded and shown. */
import { describe, expect, it } from "vitest";
import { createTenant } from "../helpers/fixtures";
import { allLeads, leadForms, pullLeads, seedLeads } from "./helpers";

describe("a lead form the platform fails to read", () => {
  it("is recorded with its error while the other forms are pulled, and the next poll stores nothing twice", async () => {
    const t = await createTenant();
    const [newsletter, quote] = await leadForms(t);
    await seedLeads(t.workspaceId, 3, { form: newsletter.externalId });
    await seedLeads(t.workspaceId, 1, { form: quote.externalId, fields: { full_name: "sandbox-reject this read" } });

    const poll = await pullLeads(t.workspaceId);
    expect(poll.error).toBeNull();
    const byForm = new Map(poll.forms.map((f: any) => [f.formId, f]));
    expect(byForm.get(newsletter.id)).toMatchObject({ stored: 3, error: null });
    expect(byForm.get(quote.id)).toMatchObject({ stored: 0, error: expect.stringMatching(/failed to read the submissions of lead form .*sandbox-reject/) });
    expect(poll.stored).toBe(3);

    const forms = new Map((await leadForms(t)).map((f: any) => [f.id, f]));
    expect(forms.get(quote.id)).toMatchObject({ leadCount: 0, lastError: expect.stringMatching(/sandbox-reject/), lastPolledAt: expect.any(String) });
    expect(forms.get(newsletter.id)).toMatchObject({ leadCount: 3, lastError: null });
    expect((await allLeads(t.key)).map((l: any) => l.form.formId)).toEqual([newsletter.id, newsletter.id, newsletter.id]);

    // The next poll fails the same way (the platform still cannot read that page) and stores nothing twice.
    const again = await pullLeads(t.workspaceId);
    expect(again.stored).toBe(0);
    expect(again.forms.find((f: any) => f.formId === quote.id).error).toMatch(/sandbox-reject/);
    expect(await allLeads(t.key)).toHaveLength(3);
  });
});
