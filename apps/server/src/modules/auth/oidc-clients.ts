import * as oidc from "openid-client";
import type { ServerContext } from "../../context.js";
import type { OidcProviderConfig } from "../../lib/oidc-provider-config.js";

// The relying party of each configured provider: its discovered metadata, kept for the life
// of the app. openid-client does every check of the ID token (issuer, audience, expiry, nonce,
// signature against the provider's JWKS, fetched again when a token names a key it has not
// seen); Tally writes no JWT or JWKS code. A provider behind a private CA is trusted through
// NODE_EXTRA_CA_CERTS (docs/sso.md).

const DISCOVERY_TIMEOUT_SECONDS = 10;

const discovered = new WeakMap<ServerContext, Map<string, Promise<oidc.Configuration>>>();

export function findProvider(ctx: ServerContext, id: string): OidcProviderConfig | undefined {
  return ctx.config.oidcProviders.find((p) => p.id === id);
}

/** The redirect URL registered at the provider: {APP_URL}/api/auth/oidc/{id}/callback. */
export function redirectUrl(ctx: ServerContext, provider: OidcProviderConfig): string {
  return `${ctx.config.appUrl}/api/auth/oidc/${provider.id}/callback`;
}

/**
 * The provider's client configuration, discovered once. A failed discovery is forgotten, so
 * the next sign-in tries again (the provider may have been down for a moment).
 */
export function providerClient(ctx: ServerContext, provider: OidcProviderConfig): Promise<oidc.Configuration> {
  let perApp = discovered.get(ctx);
  if (!perApp) discovered.set(ctx, (perApp = new Map()));
  const cached = perApp.get(provider.id);
  if (cached) return cached;
  const execute = ctx.config.oidcAllowHttp && provider.issuer.startsWith("http:") ? [oidc.allowInsecureRequests] : [];
  const pending = oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
    execute,
    timeout: DISCOVERY_TIMEOUT_SECONDS,
  });
  perApp.set(provider.id, pending);
  pending.catch(() => perApp.delete(provider.id));
  return pending;
}
