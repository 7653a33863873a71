import { corsPreflight } from "@/lib/http/oauth-route";
import { getAuthorizationServerMetadata } from "@/lib/http/oauth-metadata-route";

// RFC 8414 authorization-server metadata (this service is the MCP endpoint's authorization server).
export const dynamic = "force-dynamic";
export { getAuthorizationServerMetadata as GET, corsPreflight as OPTIONS };
