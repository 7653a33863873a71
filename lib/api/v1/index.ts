import type { OperationDef } from "@/lib/http/operation";
import { getMe } from "./account";

/** Every REST operation of /api/v1, in the order the OpenAPI document lists them. Each new route adds itself here. */
export const operations: OperationDef<any, any, any, any>[] = [getMe];
