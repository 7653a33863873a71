#!/usr/bin/env node
// The adloom command-line client. Runs the TypeScript sources through tsx's loader
// (registered for this process only), so the checkout needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
