import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { until } from "../helpers/wait";
import { pngBase64, readyCreative, toolResult } from "../tools/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { verifyWebhook } from "@adloom/sdk";
import { guest, reviewLink } from "./helpers";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("review events at a real receiver", () => {
  it("delivers review.status_changed, review.comment (teammate and guest), review.version_uploaded and review.link_viewed with the spec's fields", async () => {
    const t = await createTenant();
    const path = `/t/${t.workspaceId}`;
    const { webhook } = (await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, path) } })).body;
    const received = () =>
      Promise.all(
        receiver.requests
          .filter((r) => r.path === path)
          .map((r) => verifyWebhook({ body: r.body, header: r.headers["service-signature"] as string, secret: webhook.secret })),
      );

    const { creativeId, fileName } = await readyCreative(t.key);
    const me = (await api(t.key)("/api/v1/me")).body.account;
    await toolResult(t.key, "set_review_status", { creativeId, status: "in_review" });
    await toolResult(t.key, "add_comment", { creativeId, body: "Tighter crop", pin: { x: 0.5, y: 0.5 } });
    await toolResult(t.key, "add_creative_version", { creativeId, file: { fileName: "v2.png", contentBase64: await pngBase64(20, 20) } });
    const { token, id: linkId } = await reviewLink(t.key, { name: "Spring review", creativeIds: [creativeId], permissions: { comment: true, decide: true } });
    expect((await fetch(`${(await import("vitest")).inject("baseUrl")}/review/${token}`)).status).toBe(200);
    await guest(`/api/review/${token}/comments`, { method: "POST", json: { creativeId, name: "Gina Guest", body: "Love it" } });
    await guest(`/api/review/${token}/decision`, { method: "POST", json: { creativeId, name: "Gina Guest", decision: "approved" } });
    expect((await fetch(`${(await import("vitest")).inject("baseUrl")}/review/${token}`)).status).toBe(200); // a second view within 6 h: no event

    const events = await until(
      async () => {
        const all = (await received()).filter((e) => e.type.startsWith("review."));
        return all.length >= 6 && all;
      },
      "six review events",
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    const all = await received();
    const byType = (type: string) => all.filter((e) => e.type === type).map((e) => e.data);

    expect(byType("review.status_changed")).toEqual(
      expect.arrayContaining([
        { review: { creativeId, fileName, actorName: me.name, status: "in_review" } },
        { review: { creativeId, fileName, actorName: "Gina Guest", status: "approved" } },
      ]),
    );
    expect(byType("review.comment")).toEqual(
      expect.arrayContaining([
        { comment: { creativeId, fileName, author: me.name, body: "Tighter crop", guest: false } },
        { comment: { creativeId, fileName, author: "Gina Guest", body: "Love it", guest: true } },
      ]),
    );
    expect(byType("review.version_uploaded")).toEqual([{ version: { creativeId, fileName, actorName: me.name, versionNumber: 2 } }]);
    expect(byType("review.link_viewed")).toEqual([{ link: { linkId, subject: "Spring review" } }]);
    expect(events.every((e) => typeof e.id === "string" && typeof e.createdAt === "string")).toBe(true);
  }, 120_000);
});
