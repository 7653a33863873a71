import type { OperationDef } from "@/lib/http/operation";
import { operationFromTool } from "@/lib/http/tool-operation";
import { TOOLS } from "@/lib/tools/catalog";
import { getCreativeMediaOperation, getCreativePreviewOperation, getCreativeThumbnailOperation } from "../media";
import { getCreativeVersionMediaOperation } from "../version-media";
import { streamEvents } from "./events-stream";
import { exportLeadsOperation } from "./leads-export";
import { resumableUploadOperations } from "./resumable-uploads";
import { callToolOperation, listToolsOperation } from "./tools";

/**
 * Every REST operation, in the order the OpenAPI document lists them: the tool catalog's own
 * routes, media downloads, and every tool that declares a REST binding (the curated resources).
 * A new bound tool appears here, on the router and in the document with no edit to this file.
 */
export const operations: OperationDef<any, any, any, any>[] = [
  listToolsOperation,
  callToolOperation,
  getCreativeMediaOperation,
  getCreativePreviewOperation,
  getCreativeThumbnailOperation,
  getCreativeVersionMediaOperation,
  ...TOOLS.filter((tool) => tool.rest).map(operationFromTool),
  ...resumableUploadOperations,
  streamEvents,
  exportLeadsOperation,
];
