import { inject } from "vitest";
import { api } from "../helpers/fixtures";
import { allCreatives, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";

export interface ToolResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** POST /api/v1/tools/{name} with the key; `args` undefined sends no body. */
export async function callTool(
  key: string | null,
  name: string,
  args?: unknown,
  headers: Record<string, string> = {},
  baseUrl = inject("baseUrl"),
): Promise<ToolResponse> {
  return api(key, baseUrl)(`/api/v1/tools/${encodeURIComponent(name)}`, { method: "POST", headers, ...(args === undefined ? {} : { json: args }) });
}

/** Calls a tool and returns its result, failing loudly on anything but 200. */
export async function toolResult(key: string, name: string, args?: unknown): Promise<any> {
  const res = await callTool(key, name, args);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}

let uniq = 0;

/** Uploads one small PNG through REST, waits until it completed and its creative exists; returns both ids. */
export async function readyCreative(
  key: string,
  name = `tool-${Date.now()}-${++uniq}.png`,
): Promise<{ uploadId: string; creativeId: string; fileName: string }> {
  const [uploadId] = await uploadIds(key, [{ name, type: "image/png", bytes: await pngImage(16, 9) }]);
  const upload = await finishedUpload(key, uploadId!, 60_000);
  if (upload.status !== "completed") throw new Error(`upload ${uploadId} ended ${upload.status}: ${upload.error}`);
  // Ready, not only listed: the upload reads completed while its creative may still be importing (media, dimensions).
  const creative = await waitFor(
    `creative of ${name}, ready`,
    async () => (await allCreatives(key)).find((c) => c.fileName === name && c.status === "ready"),
    60_000,
  );
  return { uploadId: uploadId!, creativeId: creative.id, fileName: name };
}

export async function pngBase64(width = 8, height = 8): Promise<string> {
  return (await pngImage(width, height)).toString("base64");
}
