import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";

/**
 * Just enough of the tar format (POSIX ustar, with pax headers for long paths and large sizes)
 * for backups: written as a stream, read entry by entry. A backup is therefore an ordinary
 * archive that `tar -tvf` lists and `tar -xf` unpacks.
 */
const BLOCK = 512;
const CHUNK = 1 << 20;
const MAX_OCTAL_SIZE = 8 ** 11 - 1;

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), "utf8");
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

function header(name: string, size: number, mode: number, type: "0" | "x", mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  writeString(h, 0, 100, name);
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  writeOctal(h, 124, 12, Math.min(size, MAX_OCTAL_SIZE));
  writeOctal(h, 136, 12, Math.floor(mtime.getTime() / 1000));
  h.fill(" ", 148, 156);
  h.write(type, 156, "ascii");
  h.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  writeString(h, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** One pax record, "<length> <key>=<value>\n", where length counts the whole record. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

export class TarWriter {
  private position = 0;
  constructor(private readonly out: FileHandle) {}

  private async write(buf: Buffer): Promise<void> {
    await this.out.write(buf, 0, buf.length, this.position);
    this.position += buf.length;
  }

  private async writeHeader(name: string, size: number, mode: number, mtime: Date): Promise<void> {
    const ascii = /^[\x20-\x7e]*$/.test(name);
    if (!ascii || Buffer.byteLength(name) > 100 || size > MAX_OCTAL_SIZE) {
      const pax = Buffer.from(paxRecord("path", name) + (size > MAX_OCTAL_SIZE ? paxRecord("size", String(size)) : ""));
      await this.write(header("PaxHeader", pax.length, 0o644, "x", mtime));
      await this.write(Buffer.concat([pax, Buffer.alloc(padding(pax.length))]));
    }
    await this.write(header(ascii ? name.slice(0, 100) : "file", size, mode, "0", mtime));
  }

  async addBuffer(name: string, data: Uint8Array, mode = 0o600): Promise<void> {
    await this.writeHeader(name, data.length, mode, new Date());
    await this.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    await this.write(Buffer.alloc(padding(data.length)));
  }

  /** Adds a file as it is now (a file that shrinks while being read is an error). Returns its size. */
  async addFile(name: string, file: string, mode = 0o600): Promise<number> {
    const handle = await fs.promises.open(file, "r");
    try {
      const { size, mtime } = await handle.stat();
      await this.writeHeader(name, size, mode, mtime);
      const buf = Buffer.alloc(Math.min(CHUNK, Math.max(size, 1)));
      for (let done = 0; done < size; ) {
        const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, size - done), done);
        if (bytesRead === 0) throw new Error(`${file} shrank while being backed up`);
        await this.write(buf.subarray(0, bytesRead));
        done += bytesRead;
      }
      await this.write(Buffer.alloc(padding(size)));
      return size;
    } finally {
      await handle.close();
    }
  }

  /** Writes the end-of-archive marker. */
  async finish(): Promise<number> {
    await this.write(Buffer.alloc(BLOCK * 2));
    return this.position;
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** Where the entry's bytes start in the archive. */
  offset: number;
}

function readString(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

/** The regular files of an archive (pax path/size honoured; other entry types skipped). */
export function listTar(file: string): TarEntry[] {
  const fd = fs.openSync(file, "r");
  try {
    const total = fs.fstatSync(fd).size;
    const entries: TarEntry[] = [];
    const block = Buffer.alloc(BLOCK);
    let position = 0;
    let pax: Record<string, string> = {};
    while (position + BLOCK <= total) {
      fs.readSync(fd, block, 0, BLOCK, position);
      if (block.every((b) => b === 0)) break;
      if (readString(block, 257, 5) !== "ustar") throw new Error("Not a backup archive (no ustar header)");
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
      if (sum !== parseInt(readString(block, 148, 8).trim(), 8)) throw new Error("Damaged backup archive (header checksum)");
      const type = String.fromCharCode(block[156]!);
      let size = parseInt(readString(block, 124, 12).trim() || "0", 8);
      const offset = position + BLOCK;
      if (offset + size > total) throw new Error("Truncated backup archive");
      position = offset + size + padding(size);
      if (type === "x") {
        const data = Buffer.alloc(size);
        fs.readSync(fd, data, 0, size, offset);
        pax = {};
        for (const m of data.toString("utf8").matchAll(/\d+ ([^=]+)=([^\n]*)\n/g)) pax[m[1]!] = m[2]!;
        continue;
      }
      const prefix = readString(block, 345, 155);
      const name = pax.path ?? (prefix ? `${prefix}/${readString(block, 0, 100)}` : readString(block, 0, 100));
      if (pax.size) {
        size = Number(pax.size);
        position = offset + size + padding(size);
      }
      pax = {};
      if (type === "0" || type === "\0") entries.push({ name, size, offset });
    }
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies one entry's bytes out of the archive into `target` (created with `mode`). */
export async function extractEntry(archive: string, entry: TarEntry, target: string, mode = 0o600): Promise<void> {
  const { pipeline } = await import("node:stream/promises");
  if (entry.size === 0) {
    fs.writeFileSync(target, Buffer.alloc(0), { mode });
    return;
  }
  await pipeline(fs.createReadStream(archive, { start: entry.offset, end: entry.offset + entry.size - 1 }), fs.createWriteStream(target, { mode }));
}

export function readEntry(archive: string, entry: TarEntry): Buffer {
  const fd = fs.openSync(archive, "r");
  try {
    const data = Buffer.alloc(entry.size);
    fs.readSync(fd, data, 0, entry.size, entry.offset);
    return data;
  } finally {
    fs.closeSync(fd);
  }
}
