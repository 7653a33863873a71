import { apiFetch } from "./api";

/** Calls a tool of the catalog with the dashboard's session (POST /api/v1/tools/{name}) and returns its result. */
export async function callTool<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  return (await apiFetch<{ result: T }>(`/api/v1/tools/${encodeURIComponent(name)}`, { method: "POST", json: args })).result;
}
