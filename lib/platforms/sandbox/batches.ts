import type { CommentRow } from "./ads-api";
import { type SandboxSql, sandboxSql, TABLE, ts } from "./store";

const BATCH = 2000;

export type NewComment = Pick<CommentRow, "id" | "accountId" | "adId" | "authorName" | "message" | "createdAt"> &
  Partial<Pick<CommentRow, "hidden" | "parentId" | "byPage">>;

/** Stores comments as given (an id already there is kept as it is), in batches; answers how many were new. */
export async function insertComments(comments: NewComment[], sql?: SandboxSql): Promise<number> {
  const q = sql ?? (await sandboxSql());
  let inserted = 0;
  for (let i = 0; i < comments.length; i += BATCH) {
    const chunk = comments.slice(i, i + BATCH);
    inserted += await q.$executeRawUnsafe(
      `INSERT INTO ${TABLE.comments} (id, "accountId", "adId", "authorName", message, hidden, "parentId", "byPage", "createdAt")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::boolean[], $9::timestamp(3)[])
       ON CONFLICT (id) DO NOTHING`,
      chunk.map((c) => c.id),
      chunk.map((c) => c.accountId),
      chunk.map((c) => c.adId),
      chunk.map((c) => c.authorName),
      chunk.map((c) => c.message),
      chunk.map((c) => c.hidden ?? false),
      chunk.map((c) => c.parentId ?? null),
      chunk.map((c) => c.byPage ?? false),
      chunk.map((c) => ts(c.createdAt)),
    );
  }
  return inserted;
}

export interface NewLead {
  id: string;
  accountId: string;
  formId: string;
  adId: string | null;
  fields: { name: string; values: string[] }[];
  createdAt: Date;
}

/** Stores lead submissions as given (an id already there is kept as it is), in batches; answers how many were new. */
export async function insertLeads(leads: NewLead[], sql?: SandboxSql): Promise<number> {
  const q = sql ?? (await sandboxSql());
  let inserted = 0;
  for (let i = 0; i < leads.length; i += BATCH) {
    const chunk = leads.slice(i, i + BATCH);
    inserted += await q.$executeRawUnsafe(
      `INSERT INTO ${TABLE.leads} (id, "accountId", "formId", "adId", fields, "createdAt")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::timestamp(3)[])
       ON CONFLICT (id) DO NOTHING`,
      chunk.map((l) => l.id),
      chunk.map((l) => l.accountId),
      chunk.map((l) => l.formId),
      chunk.map((l) => l.adId),
      chunk.map((l) => JSON.stringify(l.fields)),
      chunk.map((l) => ts(l.createdAt)),
    );
  }
  return inserted;
}

/** Deletes a comment and its replies together, as the real platforms do (whoever deletes it: the page or its author); answers how many went. */
export async function removeComment(accountId: string, commentId: string, at: Date, sql?: SandboxSql): Promise<number> {
  const q = sql ?? (await sandboxSql());
  return q.$executeRawUnsafe(
    `UPDATE ${TABLE.comments} SET "deletedAt" = $3::timestamp(3) WHERE "accountId" = $1 AND (id = $2 OR "parentId" = $2) AND "deletedAt" IS NULL`,
    accountId,
    commentId,
    ts(at),
  );
}
