/** Job event that fans one notification out to its recipients (inngest/functions/notifications.ts). */
export const NOTIFICATION_FAN_OUT_EVENT = "notifications/fan-out";

export interface NotificationFanOutData {
  notificationId: string;
}
