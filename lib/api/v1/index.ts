import type { OperationDef } from "@/lib/http/operation";
import { getMe } from "./account";
import { deleteCopyOperation, listCopiesOperation, saveCopyOperation } from "./copy";
import { deleteCreativesOperation, listCreativesOperation } from "./creatives";
import { callToolOperation, listToolsOperation } from "./tools";
import { createUploadsOperation, dismissUploadOperation, getUploadOperation, listUploadsOperation, retryUploadOperation } from "./uploads";
import { getCreativeMediaOperation, getCreativePreviewOperation } from "../media";
import { webhookOperations } from "./webhooks";
import { getCreativeVersionMediaOperation } from "../version-media";

/** Every REST operation of /api/v1, in the order the OpenAPI document lists them. Each new route adds itself here. */
export const operations: OperationDef<any, any, any, any>[] = [getMe, listToolsOperation, callToolOperation,
  listUploadsOperation, createUploadsOperation, getUploadOperation, retryUploadOperation, dismissUploadOperation,
  getCreativeMediaOperation, getCreativePreviewOperation, getCreativeVersionMediaOperation,
  listCreativesOperation, deleteCreativesOperation, listCopiesOperation, saveCopyOperation, deleteCopyOperation,
  ...webhookOperations];
