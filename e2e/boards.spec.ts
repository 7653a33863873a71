import type { Locator, Page } from "@playwright/test";
import { expect, screenshot, signUp, switchToPro, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, PHONE } from "./support/pages";
import { callTool, readyCreative } from "./support/tools";

/** A node's position on the canvas in board units, read from React Flow's transform. */
async function positionOf(node: Locator): Promise<{ x: number; y: number }> {
  const transform = await node.evaluate((el) => (el as HTMLElement).style.transform);
  const [, x, y] = /translate\(([-\d.]+)px, ?([-\d.]+)px\)/.exec(transform) ?? [];
  return { x: Number(x), y: Number(y) };
}

async function dragBy(page: Page, node: Locator, dx: number, dy: number) {
  const box = (await node.boundingBox())!;
  const start = { x: box.x + box.width / 2, y: box.y + 20 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(start.x + (dx * i) / 10, start.y + (dy * i) / 10);
  await page.mouse.up();
}

const card = (page: Page, fileName: string) => page.getByRole("group", { name: `Creative card: ${fileName}` });

async function boardItems(page: Page, boardId: string) {
  return (await callTool(page, "get_board", { id: boardId })).items as any[];
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`a board at ${viewport.width} px: create it, drag a card, connect two, reload and find them where they were; another browser's move shows within 2 s`, async ({ page, browser }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    await signUp(page, { name: "Bea Board", workspace: "Board Room" });
    await switchToPro(page);
    const hook = `UGC_hook_${viewport.width}.png`;
    const offer = `STATIC_offer_${viewport.width}.png`;
    await readyCreative(page, hook, 300);
    await readyCreative(page, offer, 300);

    await page.goto("/dashboard/boards");
    await expect(page.getByRole("heading", { name: "Boards", level: 1 })).toBeVisible();
    await page.getByLabel("New board").fill("Launch plan");
    await page.getByRole("button", { name: "Create board" }).click();
    await expect(page).toHaveURL(/\/dashboard\/boards\/brd_/);
    const boardId = page.url().split("/").pop()!;
    await expect(page.getByRole("heading", { name: "Launch plan", level: 1 })).toBeVisible();

    const picker = page.getByLabel("Creative to add");
    await expect(picker.locator("option", { hasText: hook })).toBeAttached();
    await picker.selectOption({ label: hook });
    await page.getByRole("button", { name: "Add card" }).click();
    await expect(card(page, hook)).toBeVisible();

    // Drag the first card aside, then add the second where it was.
    const before = await positionOf(card(page, hook));
    await dragBy(page, card(page, hook), -120, -60);
    await expect.poll(async () => (await boardItems(page, boardId))[0].version, { timeout: 5_000 }).toBe(2);
    const moved = (await boardItems(page, boardId))[0];
    expect(moved.x).toBeLessThan(before.x - 20);

    await picker.selectOption({ label: offer });
    await page.getByRole("button", { name: "Add card" }).click();
    await expect(card(page, offer)).toBeVisible();

    // Select both (the new card is selected; Control-click adds the other) and connect them.
    await card(page, hook).click({ modifiers: ["Control"], position: { x: 30, y: 20 } });
    await page.getByRole("button", { name: "Connect selected" }).click();
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
    await expect.poll(async () => (await boardItems(page, boardId)).filter((i) => i.kind === "connector").length).toBe(1);

    await expectNoAxeViolations(page);
    await screenshot(page, viewport === DESKTOP ? "board" : "board-phone");

    const saved = await boardItems(page, boardId);
    await page.reload();
    await expect(card(page, hook)).toBeVisible();
    await expect(page.locator(".react-flow__edge")).toHaveCount(1);
    for (const item of saved.filter((i) => i.kind === "creative")) {
      const node = page.locator(`.react-flow__node[data-id="${item.id}"]`);
      expect(await positionOf(node)).toEqual({ x: item.x, y: item.y });
    }

    // Another browser moves the second card: this page shows it within two seconds.
    const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: await page.context().storageState() });
    const otherPage = await other.newPage();
    await otherPage.goto(`/dashboard/boards/${boardId}`);
    const second = saved.find((i) => i.kind === "creative" && i.card.fileName === offer);
    const movedAt = Date.now();
    await callTool(otherPage, "move_board_item", { id: second.id, version: second.version, x: second.x + 400, y: second.y + 100 });
    await expect.poll(async () => positionOf(page.locator(`.react-flow__node[data-id="${second.id}"]`)), { timeout: 2_000, intervals: [100] }).toEqual({ x: second.x + 400, y: second.y + 100 });
    console.log(`another browser's move showed after ${Date.now() - movedAt} ms`);
    await other.close();

    // Keyboard: Tab to a card, arrow keys move it, and the move is saved.
    const hookItem = saved.find((i) => i.kind === "creative" && i.card.fileName === hook);
    await card(page, hook).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await boardItems(page, boardId)).find((i) => i.id === hookItem.id).x, { timeout: 5_000 }).toBe(hookItem.x + 10);

    // Arrange by naming token in one step: a frame per token.
    await page.getByLabel("Group by").selectOption("naming_token");
    await page.getByRole("button", { name: "Arrange" }).click();
    await expect(page.getByRole("group", { name: "Frame: UGC" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Frame: STATIC" })).toBeVisible();
    await expectNoAxeViolations(page);
    if (viewport === DESKTOP) await screenshot(page, "board-arranged");
  });
}
