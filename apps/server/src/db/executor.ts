import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.js";

/**
 * What every repository function takes: the database, or a transaction a caller opened, so
 * writes through several owners can commit together.
 */
export type DbExecutor = Kysely<Database> | Transaction<Database>;
