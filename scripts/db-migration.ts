// npm run db:migration -- <name>: writes prisma/migrations/<timestamp>_<name>/ from the schema in prisma/schema.
import { createMigration } from "@/lib/db/migrate";

async function main(args: string[]): Promise<number> {
  const [name] = args;
  if (!name || args.length > 1 || !/^[a-z0-9_]+$/.test(name)) {
    console.error("Usage: npm run db:migration -- <name>   (lowercase letters, digits and _, e.g. add_invoices)");
    return 1;
  }
  try {
    const folder = await createMigration(name);
    console.log(folder ? `Created prisma/migrations/${folder}/migration.sql` : "No changes: the migrations already match prisma/schema; nothing written.");
    return 0;
  } catch (error) {
    console.error(`Could not create the migration: ${(error as Error).message}`);
    return 1;
  }
}

// The schema engine leaves a 10 s timer pending after its work; do not wait for it.
process.exit(await main(process.argv.slice(2)));
