import { asciiLowerCase } from "@tally/contract";
import { type OidcProviderConfig, emailDomain, ssoRequiredFor } from "../../lib/oidc-provider-config.js";

// What Tally takes from a provider's verified claims: the e-mail address it vouches for, and
// whether the sign-in there used two factors.

export type EmailVerdict =
  | { email: string }
  | { refusal: "EMAIL_NOT_VERIFIED" | "EMAIL_NOT_ACCEPTED" | "DOMAIN_NOT_ALLOWED"; email: string | null };


/**
 * The address to match to a Tally account. `email_verified` must be true; a provider that
 * never sends it (Microsoft Entra) is trusted only for the domains configured for it. With
 * domains configured, an address of any other domain is refused, and so is an address of a
 * domain whose accounts must sign in with another provider (requireSso), whatever this
 * provider's own domains. An address that NFKC normalisation would change (a KELVIN SIGN for a
 * "K", full-width letters) is refused rather than folded onto someone else's; the rest is
 * compared after plain ASCII lower-casing only.
 */
export function verifiedEmail(provider: OidcProviderConfig, claims: Record<string, unknown>, providers: readonly OidcProviderConfig[]): EmailVerdict {
  const raw = claims.email;
  if (typeof raw !== "string" || !raw.includes("@")) return { refusal: "EMAIL_NOT_VERIFIED", email: null };
  const trimmed = raw.trim();
  if (trimmed.normalize("NFKC") !== trimmed) return { refusal: "EMAIL_NOT_ACCEPTED", email: trimmed };
  const email = asciiLowerCase(trimmed);
  const inDomains = provider.domains.includes(emailDomain(email));
  if (provider.domains.length > 0 && !inDomains) return { refusal: "DOMAIN_NOT_ALLOWED", email };
  const required = ssoRequiredFor([...providers], email);
  if (required && required.id !== provider.id) return { refusal: "DOMAIN_NOT_ALLOWED", email };
  const verified = claims.email_verified;
  // Some providers send the flag as the string "true".
  if (verified === true || verified === "true") return { email };
  if (verified === undefined && inDomains) return { email };
  return { refusal: "EMAIL_NOT_VERIFIED", email };
}

// RFC 8176 authentication method references, by the kind of factor each is. "fido" is not in
// the RFC's registry but Microsoft Entra sends it for a security key; "pin" is a knowledge
// factor only beside something held. Values that only say how (wia, fed, rba, mca, user,
// geo) or hedge (Entra's "wiaormfa") are no factor at all.
const KNOWLEDGE = new Set(["pwd", "pin", "kba"]);
const POSSESSION = new Set(["otp", "sms", "tel", "hwk", "swk", "sc", "pop", "fido"]);
const INHERENCE = new Set(["fpt", "face", "iris", "retina", "vbm"]);
/** Said outright: RFC 8176's "mfa", and Entra's "ngcmfa" (Windows Hello, counted by Entra as mfa). */
const MULTI_FACTOR = new Set(["mfa", "ngcmfa"]);

/**
 * Whether the provider's `amr` shows a sign-in with two factors: "mfa" said outright, or
 * methods of two different kinds (a password and a one-time code). Two methods of one kind
 * (an SMS and a one-time code) are one factor. A provider that sends no `amr` (Google) never
 * counts as two factors: Tally then asks for its own second factor when the account has one.
 */
export function amrShowsTwoFactors(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const methods = amr.filter((m): m is string => typeof m === "string");
  if (methods.some((m) => MULTI_FACTOR.has(m))) return true;
  const kinds = [KNOWLEDGE, POSSESSION, INHERENCE].filter((kind) => methods.some((m) => kind.has(m)));
  return kinds.length >= 2;
}
