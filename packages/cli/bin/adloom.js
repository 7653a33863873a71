#!/usr/bin/env node
// The `adloom` command: runs the compiled CLI (dist/, built by `npm run build`; in the Adloom
// repository, `npm install` builds it). A file of its own so the command exists before the build.
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
