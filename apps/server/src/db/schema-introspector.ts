import { type DatabaseMetadataOptions, type Kysely, PostgresIntrospector, type TableMetadata, sql } from "kysely";

/**
 * Kysely's introspector, but blind to every schema except the connection's own (search_path).
 *
 * The migrator asks it whether its bookkeeping tables exist. Kysely's own query reads the
 * tables of every schema and calls `has_schema_privilege` and `pg_get_serial_sequence` on each
 * by name, so on a PostgreSQL shared by several schemas (parallel test suites, each in its own)
 * a sibling schema dropped while the query runs fails it with "schema … does not exist". This
 * one filters on the schema's oid before anything is looked up by name.
 */
export class CurrentSchemaIntrospector extends PostgresIntrospector {
  readonly #db: Kysely<unknown>;

  // Kysely hands every introspector its database untyped (Kysely<any>), as here.
  // oxlint-disable-next-line no-explicit-any
  constructor(db: Kysely<any>) {
    super(db);
    this.#db = db;
  }

  override async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      table: string;
      kind: string;
      schema: string;
      column: string;
      type: string;
      type_schema: string;
      not_null: boolean;
      has_default: boolean;
      identity: string;
    }>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
             typ.typname as type, tns.nspname as type_schema, a.attnotnull as not_null,
             a.atthasdef as has_default, a.attidentity as identity
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
       where ns.oid = (select oid from pg_catalog.pg_namespace where nspname = current_schema())
         and c.relkind in ('r', 'v', 'p')
         and a.attnum >= 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.#db);
    const internal = new Set(["kysely_migration", "kysely_migration_lock"]);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata["columns"][number][] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && internal.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.kind === "v", columns: [] };
        tables.set(r.table, table);
      }
      table.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        isNullable: !r.not_null,
        isAutoIncrementing: r.identity !== "",
        hasDefaultValue: r.has_default,
      });
    }
    return [...tables.values()];
  }
}
