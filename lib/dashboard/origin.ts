import { headers } from "next/headers";
import { originFromHeaders } from "@/lib/http/request-origin";

/** The origin the browser reached the dashboard at, for absolute links (emails, OAuth): see originFromHeaders. */
export async function dashboardOrigin(): Promise<string> {
  return originFromHeaders(await headers());
}
