import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import sharp from "sharp";
import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getStorage } from "@/lib/storage";

export const SEED_LIBRARY_MAX = 5000;
// A few shapes, so a seeded grid looks like a real mix of feed, story and square creatives.
const SHAPES = [
  { width: 400, height: 400 },
  { width: 400, height: 500 },
  { width: 480, height: 270 },
  { width: 270, height: 480 },
];

/**
 * Operator tool for demos and performance budgets: fills a workspace's library with `count` ready
 * image creatives (small real PNGs in media storage, or copies of the image at `fromFile`), without
 * running upload jobs (so without thumbnails: `creatives thumbnails` renders them).
 */
export async function seedLibrary(input: { workspaceId: string; count: number; folderId?: string | null; fromFile?: string }): Promise<{ created: number }> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > SEED_LIBRARY_MAX) throw badRequest(`--count must be 1 to ${SEED_LIBRARY_MAX}`);
  const db = getDb();
  if (!(await db.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } }))) throw notFound("Workspace");
  if (input.folderId && !(await db.folder.findFirst({ where: { id: input.folderId, workspaceId: input.workspaceId }, select: { id: true } })))
    throw notFound("Folder");

  const storage = getStorage();
  if (input.fromFile) return seedFromFile({ ...input, fromFile: input.fromFile });
  const images = await Promise.all(
    SHAPES.flatMap((shape, s) =>
      [0, 1, 2].map(async (c) => {
        const hue = (s * 3 + c) * 30;
        const bytes = await sharp({ create: { ...shape, channels: 3, background: `hsl(${hue}, 60%, 55%)` } })
          .png()
          .toBuffer();
        return { ...shape, bytes };
      }),
    ),
  );
  const now = Date.now();
  const rows = [];
  for (let i = 0; i < input.count; i++) {
    const image = images[i % images.length]!;
    const id = newId("cre");
    const storageKey = `${input.workspaceId}/seed/${id}.png`;
    await storage.put(storageKey, Readable.from(image.bytes), { contentType: "image/png" });
    rows.push({
      id,
      workspaceId: input.workspaceId,
      folderId: input.folderId ?? null,
      fileName: `seed-${String(i + 1).padStart(4, "0")}.png`,
      kind: "image" as const,
      contentType: "image/png",
      sizeBytes: image.bytes.length,
      status: "ready" as const,
      width: image.width,
      height: image.height,
      storageKey,
      createdAt: new Date(now - i * 1000),
    });
  }
  await db.creative.createMany({ data: rows });
  return { created: rows.length };
}

const FORMATS: Record<string, { contentType: string; extension: string }> = {
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  webp: { contentType: "image/webp", extension: "webp" },
};

/** `count` creatives sharing one real image's bytes (each its own stored copy, as uploads would be). */
async function seedFromFile(input: { workspaceId: string; count: number; folderId?: string | null; fromFile: string }): Promise<{ created: number }> {
  const stat = await fs.stat(input.fromFile).catch(() => null);
  if (!stat?.isFile()) throw badRequest(`--from: no file at ${input.fromFile}`);
  const meta = await sharp(input.fromFile)
    .metadata()
    .catch(() => null);
  const format = meta?.format ? FORMATS[meta.format] : undefined;
  if (!meta?.width || !meta.height || !format) throw badRequest("--from must be a JPEG, PNG or WebP image");
  const storage = getStorage();
  const now = Date.now();
  const rows = [];
  let first: string | null = null;
  for (let i = 0; i < input.count; i++) {
    const id = newId("cre");
    const storageKey = `${input.workspaceId}/seed/${id}.${format.extension}`;
    if (first && !(await storage.copy(first, storageKey))) throw new Error(`The seeded file ${first} disappeared while seeding`);
    else await storage.put(storageKey, createReadStream(input.fromFile), { contentType: format.contentType });
    first ??= storageKey;
    rows.push({
      id,
      workspaceId: input.workspaceId,
      folderId: input.folderId ?? null,
      fileName: `seed-${String(i + 1).padStart(4, "0")}.${format.extension}`,
      kind: "image" as const,
      contentType: format.contentType,
      sizeBytes: stat.size,
      status: "ready" as const,
      width: meta.width,
      height: meta.height,
      storageKey,
      createdAt: new Date(now - i * 1000),
    });
  }
  await getDb().creative.createMany({ data: rows });
  return { created: rows.length };
}
