import { z } from "zod";

/** One OpenID Connect provider of OIDC_PROVIDERS, as the server uses it. */
export interface OidcProviderConfig {
  /** In the URLs: /api/auth/oidc/{id}/start and /callback. */
  id: string;
  /** On the button: "Sign in with {name}". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-cased e-mail domains accepted from this provider; empty: any domain (with a verified e-mail). */
  domains: string[];
  /** Password sign-in is refused for accounts of these domains. */
  requireSso: boolean;
}

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, { error: "must be an e-mail domain such as school.example.org" });

const providerSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: "must be 1-40 lower-case letters, digits or dashes, e.g. google" }),
  name: z.string().trim().min(1, { error: "must not be empty" }).max(60, { error: "must be at most 60 characters" }),
  issuer: z.url({ error: "must be the issuer URL, e.g. https://accounts.google.com" }),
  clientId: z.string().min(1, { error: "must not be empty" }),
  clientSecret: z.string().min(1, { error: "must not be empty" }),
  domains: z.array(domain).optional(),
  requireSso: z.boolean().optional(),
});

/**
 * OIDC_PROVIDERS (a JSON array) read into providers, or the problems found, each naming the
 * provider and field. A plain-http issuer is refused unless `allowHttp` (OIDC_ALLOW_HTTP, for
 * development and tests). Secrets never appear in the problems.
 */
export function parseOidcProviders(text: string | undefined, allowHttp: boolean): OidcProviderConfig[] | string[] {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return ["OIDC_PROVIDERS: must be a JSON array such as [{\"id\":\"google\",\"name\":\"Google\",\"issuer\":\"https://accounts.google.com\",\"clientId\":\"…\",\"clientSecret\":\"…\"}]"];
  }
  if (!Array.isArray(json)) return ["OIDC_PROVIDERS: must be a JSON array of providers"];
  const problems: string[] = [];
  const providers: OidcProviderConfig[] = [];
  json.forEach((entry: unknown, index) => {
    const parsed = providerSchema.safeParse(entry);
    const label = `OIDC_PROVIDERS[${index}]`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${label}.${issue.path.join(".")}: ${issue.message}`);
      return;
    }
    const p = parsed.data;
    const issuer = new URL(p.issuer);
    if (issuer.protocol !== "https:" && !(allowHttp && issuer.protocol === "http:")) {
      problems.push(`${label}.issuer: must be an https:// URL (plain http only with OIDC_ALLOW_HTTP=on, for development)`);
    }
    if (p.requireSso && !p.domains?.length) {
      problems.push(`${label}.requireSso: needs "domains", the e-mail domains whose accounts must sign in with ${p.name}`);
    }
    if (providers.some((other) => other.id === p.id)) problems.push(`${label}.id: "${p.id}" is used by another provider`);
    providers.push({
      id: p.id,
      name: p.name,
      issuer: p.issuer,
      clientId: p.clientId,
      clientSecret: p.clientSecret,
      domains: [...new Set(p.domains ?? [])],
      requireSso: p.requireSso ?? false,
    });
  });
  const required = providers.filter((p) => p.requireSso);
  for (const p of required) {
    for (const d of p.domains) {
      const other = required.find((q) => q !== p && q.domains.includes(d));
      if (other && providers.indexOf(other) > providers.indexOf(p)) {
        problems.push(`OIDC_PROVIDERS: the domain ${d} requires sign-in with both ${p.id} and ${other.id}; choose one`);
      }
    }
  }
  return problems.length > 0 ? problems : providers;
}

/** The e-mail domain of an address, lower-cased ("" when there is none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at === -1 ? "" : email.slice(at + 1).toLowerCase();
}

/** The provider whose sign-in an account of this e-mail must use (requireSso), if any. */
export function ssoRequiredFor(providers: OidcProviderConfig[], email: string): OidcProviderConfig | undefined {
  const d = emailDomain(email);
  return d ? providers.find((p) => p.requireSso && p.domains.includes(d)) : undefined;
}
