import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { z } from "zod";

/**
 * A Tally backup file: one line of magic, one line of JSON describing the payload, then the
 * payload (the embedded database's data folder as PGlite dumps it, a gzipped tarball). The
 * header lets restore refuse anything else, and a truncated or altered copy, before it
 * touches the data folder.
 */
const MAGIC = "TALLY-BACKUP 1\n";
const MAX_HEADER_BYTES = 4096;

const headerSchema = z.object({
  engine: z.literal("embedded"),
  createdAt: z.string(),
  /** The newest migration in the backed-up database: a restore into an older build fails on it. */
  latestMigration: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupHeader = z.infer<typeof headerSchema>;

export class BadBackupError extends Error {
  constructor(reason: string) {
    super(`This is not a usable Tally backup: ${reason}.`);
    this.name = "BadBackupError";
  }
}

export function encodeBackup(tarball: Uint8Array, meta: { createdAt: string; latestMigration: string | null }): Buffer {
  const header: BackupHeader = {
    engine: "embedded",
    ...meta,
    bytes: tarball.byteLength,
    sha256: createHash("sha256").update(tarball).digest("hex"),
  };
  return Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`), tarball]);
}

/** Checks a backup file whole (magic, header, length, checksum, gzip) and returns its parts. */
export function decodeBackup(file: Buffer): { header: BackupHeader; tarball: Buffer } {
  if (!file.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC))) {
    throw new BadBackupError("it does not start as one (made by `npm run cli -- backup`)");
  }
  const end = file.indexOf(0x0a, MAGIC.length);
  if (end === -1 || end - MAGIC.length > MAX_HEADER_BYTES) throw new BadBackupError("its header is damaged");
  let header: BackupHeader;
  try {
    header = headerSchema.parse(JSON.parse(file.subarray(MAGIC.length, end).toString("utf8")));
  } catch {
    throw new BadBackupError("its header is damaged");
  }
  const tarball = file.subarray(end + 1);
  if (tarball.byteLength !== header.bytes) {
    throw new BadBackupError(`it holds ${tarball.byteLength} bytes of data where ${header.bytes} were written (a partial copy?)`);
  }
  if (createHash("sha256").update(tarball).digest("hex") !== header.sha256) {
    throw new BadBackupError("its checksum does not match (the file was changed or damaged)");
  }
  try {
    gunzipSync(tarball);
  } catch {
    throw new BadBackupError("its data cannot be unpacked");
  }
  return { header, tarball };
}
