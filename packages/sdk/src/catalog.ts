// `@adloom/sdk/catalog`: the tool catalog as data (names, descriptions, argument schemas), for
// tools that build interfaces offline, such as the CLI's flags and help. Kept out of the main
// entry point so browser bundles do not carry it.
export { TOOL_CATALOG, type CatalogEntry } from "./generated/catalog.js";
