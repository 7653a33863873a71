import type { Page } from "@playwright/test";
import { pngImage } from "../../tests/helpers/media-fixtures";
import { expect } from "./fixtures";
import { paced } from "../../scripts/test-pace.mjs";

/** A tool call as the signed-in member: the session cookie, same-origin like the dashboard's own requests. */
export async function callTool(page: Page, name: string, args: object): Promise<any> {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(`/api/v1/tools/${name}`, { data: args, headers: { Origin: origin } });
  const body = await res.json();
  if (!res.ok()) throw new Error(`${name}: ${res.status()} ${JSON.stringify(body)}`);
  return body.result;
}

/** Uploads a PNG through the tools and waits until its creative is ready; the creative's id. */
export async function readyCreative(page: Page, fileName: string, size = 600): Promise<string> {
  const { uploads } = await callTool(page, "create_upload", {
    files: [{ fileName, contentBase64: (await pngImage(size, size)).toString("base64"), contentType: "image/png" }],
    platform: "platform_a",
  });
  let creativeId: string | undefined;
  await expect
    .poll(
      async () => {
        const { creatives } = await callTool(page, "list_creatives", { limit: 50 });
        const creative = creatives.find((c: any) => c.uploadId === uploads[0].id || c.fileName === fileName);
        creativeId = creative?.status === "ready" ? creative.id : undefined;
        return creativeId;
      },
      { timeout: paced(60_000) },
    )
    .toBeTruthy();
  return creativeId!;
}

/** A (paused) ad on platform A for a ready creative: campaign, ad set, copy and ad made through the tools. */
export async function adFor(
  page: Page,
  creativeId: string,
  names: { campaign: string; adSet: string; ad?: string },
): Promise<{ id: string; externalId: string }> {
  const { id: copyVariantId } = await callTool(page, "create_copy_variant", {
    creativeId,
    headline: "Fresh picks",
    primaryText: "Shop the new season",
    label: "Main",
  });
  const { campaign } = await callTool(page, "create_campaign", { platform: "platform_a", name: names.campaign, objective: "sales" });
  const { adSet } = await callTool(page, "create_ad_set", {
    campaignId: campaign.id,
    platform: "platform_a",
    name: names.adSet,
    budget: { type: "daily", amountMinor: 5000 },
    targetCountries: ["US"],
  });
  const { ad } = await callTool(page, "create_ad", {
    adSetId: adSet.id,
    creativeId,
    copyVariantId,
    name: names.ad,
    callToAction: "shop_now",
    landingUrl: "https://example.com/shop",
  });
  return ad;
}
