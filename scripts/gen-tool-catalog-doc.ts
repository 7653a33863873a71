import fs from "node:fs";
import { renderToolCatalogDoc } from "@/lib/tools/catalog-doc";

fs.writeFileSync("docs/tool-catalog.md", renderToolCatalogDoc());
console.log("wrote docs/tool-catalog.md");
