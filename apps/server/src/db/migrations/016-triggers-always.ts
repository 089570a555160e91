import { type Kysely, sql } from "kysely";

/**
 * Every trigger of Tally's own fires whatever session_replication_role says. The weekly import
 * on the embedded engine writes with the role at "replica" so that PostgreSQL's per-row foreign
 * key triggers (which lock each parent row against other sessions PGlite does not have) are
 * left out for a set-based check of the same references; the rollups, summaries and the data
 * version must still follow every write. A later migration's trigger must be made "always"
 * too: 016-triggers-always.db.test.ts fails on one that is not.
 */
export async function migrate016(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`do $$
    declare t record;
    begin
      for t in select c.relname, tg.tgname from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
                where not tg.tgisinternal and c.relnamespace = current_schema()::regnamespace loop
        execute format('alter table %I enable always trigger %I', t.relname, t.tgname);
      end loop;
    end $$`)
    .execute(db);
}
