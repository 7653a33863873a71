import type { InngestFunction } from "inngest";
import { purgeJobHistory } from "./purge-job-history";

/** Every function the app serves. Add a function: one file per function here, then append it. */
export const functions: InngestFunction.Any[] = [purgeJobHistory];
