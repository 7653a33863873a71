import { authorizationServerMetadata, protectedResourceMetadata } from "@/lib/oauth/metadata";
import { withCors } from "./oauth-route";
import { requestOrigin } from "./request-origin";
import { json } from "./responses";

/** GET of a well-known metadata document: public, cacheable for an hour, readable cross-origin. */
function metadataResponse(body: object): Response {
  const response = withCors(json(body));
  response.headers.set("Cache-Control", "public, max-age=3600");
  return response;
}

export const getProtectedResourceMetadata = (request: Request) => metadataResponse(protectedResourceMetadata(requestOrigin(request)));
export const getAuthorizationServerMetadata = (request: Request) => metadataResponse(authorizationServerMetadata(requestOrigin(request)));
