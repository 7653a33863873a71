/** Threads as the review tools and guest routes return them (lib/review/schemas.ts), for client components. */
export interface ReplyView {
  id: string;
  body: string;
  authorName: string;
  /** Absent in what guests receive: they never see internal user ids. */
  authorUserId?: string | null;
  guest: boolean;
  createdAt: string;
  editedAt: string | null;
}

export interface ThreadView extends ReplyView {
  versionNumber: number;
  timeSeconds: number | null;
  pin: { x: number; y: number } | null;
  resolved: boolean;
  resolvedAt: string | null;
  replies: ReplyView[];
}
