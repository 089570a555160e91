const COMMANDS: Record<string, string> = {
  migrate: `migrate
    Applies pending database migrations.`,
  "create-user": `create-user --username U --email E --role R [--password P] [--school-id N] [--school-ids 1,2]
    Creates an account. R is one of super_admin, admin, district_user, school_user.
    school_user needs --school-id, district_user needs --school-ids.
    Without --password the password is asked for on the terminal (not echoed).`,
  "seed:demo": `seed:demo
    Loads the demo data and demo accounts into an empty database. The password is
    DEMO_PASSWORD, or a generated one saved in DATA_DIR/demo-credentials.txt.`,
  "seed:large": `seed:large [--students N] [--schools N]
    Adds large synthetic data for benchmarks (default 50000 students in 40 schools,
    4 cohorts, 10 weeks of mentor and advisor attendance).`,
  backup: `backup --out FILE
    Writes a backup of the embedded database to FILE (which must not exist). It can run while
    the server runs: the server takes it between transactions. With PostgreSQL use pg_dump.`,
  restore: `restore --in FILE
    Replaces the embedded database with the backup in FILE. Stop the server first. The current
    database is kept beside it (DATA_DIR/pglite.before-restore-...). With PostgreSQL use pg_restore.`,
  help: `help [command]
    Shows this help, or one command's.`,
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

/** The help text: every command, or just one. */
export function usage(command?: string): string {
  const header = "Usage: npm run cli -- <command> [options]";
  const one = command ? COMMANDS[command] : undefined;
  if (one) return `${header}\n\n  ${one}`;
  const config = [
    "Configuration comes from the same environment as the server (DATA_DIR, DATABASE_URL, DEMO_PASSWORD, ...).",
    "With the embedded database, stop the server first (except for backup): only one process can open DATA_DIR.",
  ];
  return [header, "", "Commands:", ...Object.values(COMMANDS).map((c) => `  ${c}`), "", ...config].join("\n");
}
