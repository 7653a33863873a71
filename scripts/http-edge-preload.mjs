// Loaded with `node --import` before `next start` (scripts/start.mjs): see lib/server/http-edge.mjs.
import { installHttpEdge } from "../lib/server/http-edge.mjs";

installHttpEdge();
