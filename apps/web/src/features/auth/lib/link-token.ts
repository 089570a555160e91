import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * The one-time token of an e-mailed link: `#token=…` (current links: a fragment never reaches
 * the server, so no request log holds it), else `?token=…` (older links, and the spec's form).
 */
export function tokenFromLink(hash: string, search: string): string | null {
  const fromHash = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return fromHash || new URLSearchParams(search).get("token") || null;
}

/**
 * Reads the link's token once, then takes it out of the address bar (a replace, so neither
 * history, a bookmark nor a shared screen keeps it). The page keeps the token it read until
 * another link is opened in the same tab.
 */
export function useLinkToken(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const inLink = tokenFromLink(location.hash, location.search);
  const [token, setToken] = useState(inLink);
  if (inLink !== null && inLink !== token) setToken(inLink);
  const inAddressBar = inLink !== null;

  useEffect(() => {
    if (inAddressBar) void navigate({ pathname: location.pathname }, { replace: true });
  }, [inAddressBar, location.pathname, navigate]);

  return token;
}
