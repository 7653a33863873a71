import { corsPreflight } from "@/lib/http/oauth-route";
import { getProtectedResourceMetadata } from "@/lib/http/oauth-metadata-route";

// RFC 9728 protected-resource metadata of the MCP endpoint (root and path-suffixed locations).
export const dynamic = "force-dynamic";
export { getProtectedResourceMetadata as GET, corsPreflight as OPTIONS };
