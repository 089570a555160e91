import type { DatabaseHandle } from "../src/db/connection.js";
import type { CliIo } from "../src/cli/cli-io.js";

export interface RecordingIo extends CliIo {
  lines: string[];
  errors: string[];
  opened: number;
}

/** An io that records output and opens the given test database instead of DATA_DIR's. */
export function recordingIo(database: DatabaseHandle | undefined, extra: Partial<CliIo> = {}): RecordingIo {
  const io: RecordingIo = {
    lines: [],
    errors: [],
    opened: 0,
    out: (line) => io.lines.push(line),
    err: (line) => io.errors.push(line),
    ...extra,
  };
  if (database) {
    io.openDatabase = async () => {
      io.opened++;
      return { database, applied: [], close: async () => {} };
    };
  }
  return io;
}
