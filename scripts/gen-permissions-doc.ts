import fs from "node:fs";
import { renderPermissionsDoc } from "@/lib/auth/permissions-doc";

fs.writeFileSync("docs/permissions.md", renderPermissionsDoc());
console.log("wrote docs/permissions.md");
