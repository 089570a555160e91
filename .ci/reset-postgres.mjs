// Empties the CI test database: the public schema and every per-suite schema left behind.
import pg from "pg";

const url = process.argv[2];
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query(
  "select nspname from pg_namespace where nspname = 'public' or nspname like 't\\_%' or nspname like 'e2e\\_%'",
);
for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
await client.query("create schema if not exists public");
await client.end();
console.log(`reset ${url}: dropped ${rows.length} schema(s)`);
