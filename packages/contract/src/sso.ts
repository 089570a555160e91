import { z } from "zod";
import { MESSAGES } from "./messages.js";

// Single sign-on (OpenID Connect, issue 31). The browser goes to /api/auth/oidc/{id}/start,
// signs in at the provider, comes back to /api/auth/oidc/{id}/callback, and is sent on to the
// web app's /sso page with either a one-time code or a refusal in the URL's fragment (which
// never reaches a server or its log). The page exchanges the code for the usual token pair.

/** GET /api/auth/providers: the configured providers, for the "Sign in with {name}" buttons. */
export const authProviderSchema = z.object({ id: z.string(), name: z.string() });
export type AuthProvider = z.infer<typeof authProviderSchema>;
export const authProvidersResponseSchema = z.array(authProviderSchema);
export type AuthProvidersResponse = z.infer<typeof authProvidersResponseSchema>;

/** The reply of a browser navigation answered with a redirect: no body, see Location. */
export const redirectResponseSchema = z.null().describe("A redirect: see the Location header");

export const oidcProviderParamsSchema = z.object({ id: z.string().max(40) });

const callbackValue = z.string().max(4096).optional();

/**
 * The callback's query as providers send it; nothing is required, so a bad return is a refusal
 * page, not a 400. Beside the standard parameters, what the common providers add (the query
 * guard refuses names not listed): Google's scope, authuser, hd and prompt; Entra's and
 * Keycloak's session_state.
 */
export const oidcCallbackQuerySchema = z.object({
  code: callbackValue,
  state: callbackValue,
  iss: callbackValue,
  error: callbackValue,
  error_description: callbackValue,
  error_uri: callbackValue,
  session_state: callbackValue,
  scope: callbackValue,
  authuser: callbackValue,
  hd: callbackValue,
  prompt: callbackValue,
});

/** POST /api/auth/oidc/exchange: the one-time code from the /sso page's fragment. */
export const oidcExchangeRequestSchema = z.object({ code: z.string().min(1, "code is required").max(256) });
export type OidcExchangeRequest = z.infer<typeof oidcExchangeRequestSchema>;

/** Why a single sign-on was refused; the /sso page shows ssoRefusalText for it. */
export const SSO_REFUSALS = [
  "NO_ACCOUNT",
  "ACCOUNT_INACTIVE",
  "EMAIL_NOT_VERIFIED",
  "EMAIL_NOT_ACCEPTED",
  "DOMAIN_NOT_ALLOWED",
  "LINKED_ELSEWHERE",
  "DEMO_OFF",
  "PROVIDER_UNAVAILABLE",
  "SIGN_IN_FAILED",
] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];

/**
 * The text of a refusal. Fixed texts only: the refusal reaches the page in the URL's fragment,
 * which anyone can write into a link, so no value of it (an address, a name) is ever shown;
 * `provider` is the name of a configured provider, looked up by its id.
 */
export function ssoRefusalText(refusal: SsoRefusal, provider: string): string {
  switch (refusal) {
    case "NO_ACCOUNT":
      return `There is no Tally account for the e-mail address ${provider} gave — ask your programme administrator.`;
    case "ACCOUNT_INACTIVE":
      return "This Tally account is deactivated — ask your programme administrator.";
    case "EMAIL_NOT_VERIFIED":
      return `${provider} has not verified your e-mail address, so Tally cannot sign you in with it.`;
    case "EMAIL_NOT_ACCEPTED":
      return `Tally cannot accept the e-mail address ${provider} gave: it holds characters that are not in their plain form. Ask your programme administrator.`;
    case "DOMAIN_NOT_ALLOWED":
      return `Tally does not accept ${provider} sign-in for your e-mail address. Use your school account or ask your programme administrator.`;
    case "LINKED_ELSEWHERE":
      return `This Tally account signs in with another ${provider} account or another provider. Use that one, or ask your programme administrator.`;
    case "DEMO_OFF":
      return MESSAGES.demoSwitchedOff;
    case "PROVIDER_UNAVAILABLE":
      return `${provider} cannot be reached just now. Please try again in a few minutes.`;
    case "SIGN_IN_FAILED":
      return `Sign-in with ${provider} did not complete. Please try again.`;
  }
}

/** The password sign-in's refusal for an account whose domain must use single sign-on (requireSso). */
export const ssoRequiredText = (provider: string) => `Your organisation signs in with ${provider}: use "Sign in with ${provider}".`;
