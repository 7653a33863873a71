import type { InngestFunction } from "inngest";
import { automationFlowRun, automationFlowSchedules } from "./automation-flows";
import { automationRules } from "./automation-rules";
import { commentsPull } from "./comments-pull";
import { performanceRollup } from "./performance-rollup";
import { purgeJobHistory } from "./purge-job-history";
import { taskDueDigest } from "./task-due-digest";
import { uploadPush } from "./upload-push";
import { uploadVersion } from "./upload-version";
import { webhookDeliver } from "./webhook-deliver";
import { webhookMaintenance } from "./webhook-maintenance";
import { leadsPull } from "./leads-pull";
import { mediaPush } from "./media-push";
import { adBuild } from "./ad-build";
import { importItem } from "./import-item";
import { importRunFinish } from "./import-run-finish";
import { importSync } from "./import-sync";
import { notificationFanOut, notificationSweep } from "./notifications";
import { passwordResetEmail } from "./password-reset-email";
import { securityNoticeEmail } from "./security-notice-email";

/** Every function the app serves. Add a function: one file per function here, then append it. */
export const functions: InngestFunction.Any[] = [
  purgeJobHistory,
  uploadPush,
  uploadVersion,
  webhookDeliver,
  webhookMaintenance,
  taskDueDigest,
  automationRules,
  automationFlowRun,
  automationFlowSchedules,
  commentsPull,
  performanceRollup,
  leadsPull,
  mediaPush,
  adBuild,
  importItem,
  importRunFinish,
  importSync,
  notificationFanOut,
  notificationSweep,
  passwordResetEmail,
  securityNoticeEmail,
];
