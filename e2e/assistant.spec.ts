import { expect, screenshot, signUp, switchToPro, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

// The e2e server's provider is the local fake of the OpenAI wire format in e2e/support/fake-assistant.ts.
test("the Assistant answers from the workspace's data, asks before a destructive tool, and shows what it cost, at phone and desktop width", async ({
  page,
}) => {
  test.setTimeout(paced(180_000));
  await signUp(page, { workspace: "Assistant Team" });
  await switchToPro(page);
  await expect(page.getByTestId("plan-credits")).toHaveText("10,000");
  await readyCreative(page, "assistant-hero.png");

  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/assistant");
    await expect(page.getByRole("heading", { level: 1, name: "Assistant" })).toBeVisible();
    await expect(page.getByTestId("ai-balance")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }

  // A read tool runs at once, as the signed-in member; the answer streams in and states its cost.
  const conversation = page.getByRole("list", { name: "Conversation" });
  await page.getByLabel("Message").fill("What is in my library?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(conversation.getByText("I looked that up: your library has 1 creatives.")).toBeVisible();
  await expect(conversation.getByText("Looked up: list_creatives")).toBeVisible();
  await expect(conversation.getByTestId("answer-cost").last()).toHaveText(/^Cost: \d+ credits?$/);
  await expect(page.getByRole("table", { name: "Usage by feature" }).getByRole("cell", { name: "assistant_chat" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Usage by member" }).getByRole("cell", { name: "Olivia Owner" })).toBeVisible();

  // A destructive tool waits for the person's yes.
  await page.getByLabel("Message").fill("Delete that creative");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("The assistant wants to run delete_creatives")).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, "assistant-confirm");
  await page.getByRole("button", { name: "Confirm and run" }).click();
  await expect(conversation.getByText(/^Looked up: delete_creatives/)).toBeVisible();
  await expect(page.getByText("The assistant wants to run delete_creatives")).toHaveCount(0);

  // The brand voice and naming convention are settings the tools follow.
  await page.getByLabel("Brand voice").fill("Warm and direct.");
  await page.getByLabel("Naming convention").fill("{date}_{product}");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Brand voice")).toHaveValue("Warm and direct.");

  // The Plan page's line reads the same ledger.
  const balance = (await page.getByTestId("ai-balance").textContent())!.trim();
  expect(Number(balance.replace(/,/g, ""))).toBeLessThan(10_000);
  await page.goto("/dashboard/settings/plan");
  await expect(page.getByTestId("plan-credits")).toHaveText(balance);
});

test("a finished answer shows once, even while its response is still closing", async ({ page }) => {
  // The browser sees the answer's last line at once but the response's end 5 s later (as over a slow network):
  // the streamed text must give way to the answer's turn on that line, not on the end.
  await page.addInitScript(() => {
    const fetchAsSent = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await fetchAsSent(input, init);
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes("/dashboard/assistant/stream") || !response.body) return response;
      const reader = response.body.getReader();
      const heldOpen = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          await new Promise((resolve) => setTimeout(resolve, 5_000));
          controller.close();
        },
      });
      return new Response(heldOpen, { status: response.status, headers: response.headers });
    };
  });
  await signUp(page, { workspace: "Assistant Closing" });
  await switchToPro(page);
  await page.goto("/dashboard/assistant");
  const conversation = page.getByRole("list", { name: "Conversation" });
  await page.getByLabel("Message").fill("What is in my library?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(conversation.getByTestId("answer-cost")).toBeVisible();
  await expect(conversation.getByTestId("streaming-answer")).toHaveCount(0, { timeout: paced(2_000) });
  await expect(conversation.getByText("I looked that up: your library has 0 creatives.")).toHaveCount(1, { timeout: paced(2_000) });
  // Done means done: the next question can be sent while the old response is still closing.
  await page.getByLabel("Message").fill("And the ads?");
  await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: paced(2_000) });
});
