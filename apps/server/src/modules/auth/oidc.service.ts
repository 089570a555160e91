import { createHash, randomBytes } from "node:crypto";
import type { LoginFailureReason, LoginResponse, SsoRefusal } from "@tally/contract";
import type { FastifyBaseLogger } from "fastify";
import * as oidc from "openid-client";
import type { ServerContext } from "../../context.js";
import { notFound, unauthenticated } from "../../lib/errors.js";
import type { OidcProviderConfig } from "../../lib/oidc-provider-config.js";
import { demoClosesAccount } from "../scope/scope.policy.js";
import { readDemoSettings } from "../scope/scope-settings.service.js";
import { hasSecondFactor, openChallenge, secondFactorMethods } from "../mfa/mfa.service.js";
import { claimOidcLink, findAccountByEmail, findAccountById, recordLoginAttempt } from "../users/accounts.service.js";
import { finishSignIn } from "./auth.service.js";
import { amrShowsTwoFactors, verifiedEmail } from "./oidc-claims.js";
import { findProvider, providerClient, redirectUrl } from "./oidc-clients.js";
import { openFlow, sealFlow } from "./oidc-flow-cookie.js";
import { insertHandoff, takeHandoff } from "./oidc-handoffs.repository.js";

// Single sign-on with OpenID Connect: authorization code with PKCE, state and nonce. The
// browser ends on the web app's /sso page with a one-time code in the fragment, which the page
// exchanges for the usual token pair; from then on every session rule is the password's.

/** Only the digest of a one-time code is stored. */
const hashToken = (code: string) => createHash("sha256").update(code).digest("hex");

const EMAIL_REFUSAL_REASONS = {
  EMAIL_NOT_VERIFIED: "email_not_verified",
  EMAIL_NOT_ACCEPTED: "sso_email_not_accepted",
  DOMAIN_NOT_ALLOWED: "domain_not_allowed",
} as const satisfies Record<string, LoginFailureReason>;

/** How long the one-time code of the /sso page lasts. */
const HANDOFF_TTL_MS = 60_000;

export interface SsoClient {
  ipAddress: string;
  userAgent: string | null;
}

function providerOrNotFound(ctx: ServerContext, id: string): OidcProviderConfig {
  const provider = findProvider(ctx, id);
  if (!provider) throw notFound("Unknown sign-in provider");
  return provider;
}

/**
 * Where the browser goes next, with the sealed flow and the browser's key for the cookies
 * (none when the provider is down).
 */
export async function startSso(
  ctx: ServerContext,
  providerId: string,
  log: FastifyBaseLogger,
): Promise<{ location: string; cookies?: { sealedFlow: string; browserKey: string } }> {
  const provider = providerOrNotFound(ctx, providerId);
  let client: oidc.Configuration;
  try {
    client = await providerClient(ctx, provider);
  } catch (err) {
    log.warn({ provider: provider.id, reason: errorSummary(err) }, "sso: provider discovery failed");
    return { location: refusalLocation(ctx, provider, "PROVIDER_UNAVAILABLE") };
  }
  const browserKey = randomBytes(32).toString("base64url");
  const flow = {
    provider: provider.id,
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    browser: hashToken(browserKey),
  };
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUrl(ctx, provider),
    scope: "openid email profile",
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { location: url.href, cookies: { sealedFlow: await sealFlow(ctx.config.secretKey, ctx.clock.now(), flow), browserKey } };
}

/** The message of an error without its cause (which can carry claim values), for the log. */
function errorSummary(err: unknown): string {
  if (!(err instanceof Error)) return "unknown error";
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${err.message}` : err.message;
}

/** The refusal and the provider's id only: the page shows fixed texts, never a value from the URL. */
function refusalLocation(ctx: ServerContext, provider: OidcProviderConfig, refusal: SsoRefusal): string {
  const fragment = new URLSearchParams({ error: refusal, provider: provider.id });
  return `${ctx.config.appUrl}/sso#${fragment}`;
}

/**
 * The provider's redirect back: the code is exchanged and the ID token checked by
 * openid-client against the flow in the cookie; the verified e-mail is matched to an active
 * account. Every outcome is a redirect to /sso: a one-time code, or a refusal to show.
 */
export async function finishSso(
  ctx: ServerContext,
  providerId: string,
  callbackPathAndQuery: string,
  sealedFlow: string | undefined,
  client: SsoClient,
  log: FastifyBaseLogger,
): Promise<string> {
  const provider = providerOrNotFound(ctx, providerId);
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const record = (userId: number | null, email: string | null, failureReason: LoginFailureReason) =>
    recordLoginAttempt(db, {
      userId,
      login: email ?? "",
      loginMethod: "oidc",
      provider: provider.id,
      ipAddress: client.ipAddress,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      successful: false,
      failureReason,
      at: now,
    });
  const refuse = async (refusal: SsoRefusal, failureReason: LoginFailureReason, userId: number | null = null, email: string | null = null) => {
    await record(userId, email, failureReason);
    return refusalLocation(ctx, provider, refusal);
  };

  const flow = await openFlow(ctx.config.secretKey, now, sealedFlow);
  if (!flow || flow.provider !== provider.id) return refuse("SIGN_IN_FAILED", "sso_no_flow");

  let claims: Record<string, unknown>;
  try {
    const config = await providerClient(ctx, provider);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callbackPathAndQuery, ctx.config.appUrl), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return refuse("SIGN_IN_FAILED", "sso_no_id_token");
    claims = { ...idClaims };
    // Providers that keep the e-mail out of the ID token (oidc-provider, some Keycloak set-ups) serve it from userinfo.
    if (typeof claims.email !== "string") {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...claims, email: info.email, email_verified: info.email_verified };
    }
  } catch (err) {
    log.warn({ provider: provider.id, reason: errorSummary(err) }, "sso: sign-in refused by the checks of the provider's reply");
    return refuse("SIGN_IN_FAILED", "sso_rejected");
  }

  const verdict = verifiedEmail(provider, claims, ctx.config.oidcProviders);
  if ("refusal" in verdict) return refuse(verdict.refusal, EMAIL_REFUSAL_REASONS[verdict.refusal], null, verdict.email);
  const user = await findAccountByEmail(db, verdict.email);
  if (!user) return refuse("NO_ACCOUNT", "unknown_user", null, verdict.email);
  if (!user.is_active) return refuse("ACCOUNT_INACTIVE", "inactive", user.id, verdict.email);
  if (demoClosesAccount(user.role, user.school_id, await readDemoSettings(db))) return refuse("DEMO_OFF", "demo_off", user.id, verdict.email);
  // The first single sign-on links the account to this provider's subject; from then on only
  // that provider account signs it in, whatever address another one (or another provider) shows.
  if (typeof claims.sub !== "string" || !(await claimOidcLink(db, user, provider.id, claims.sub))) {
    return refuse("LINKED_ELSEWHERE", "sso_linked_elsewhere", user.id, verdict.email);
  }

  const code = randomBytes(32).toString("base64url");
  await insertHandoff(db, {
    codeHash: hashToken(code),
    browserHash: flow.browser,
    userId: user.id,
    provider: provider.id,
    // Only the linked provider gets this far, so no other provider's `amr` can make the sign-in two-factor.
    multiFactor: amrShowsTwoFactors(claims.amr),
    createdAt: now,
    expiresAt: new Date(now.getTime() + HANDOFF_TTL_MS),
  });
  return `${ctx.config.appUrl}/sso#${new URLSearchParams({ code })}`;
}

/**
 * The /sso page's one-time code for the token pair. The sign-in (and its line in the login
 * history, with the provider and whether it counted as two factors) starts here. When the
 * provider's `amr` did not show two factors and the account has a second factor of its own, the
 * answer is the challenge POST /auth/login gives such an account: the tokens come with the code
 * (POST /auth/mfa/verify, or a passkey), whose line in the history names the provider. When it
 * did, the sign-in counts as two-factor for REQUIRE_MFA_FOR_ADMINS.
 */
export async function exchangeSsoCode(ctx: ServerContext, code: string, browserKey: string | undefined, client: SsoClient): Promise<LoginResponse> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  // Another browser's code (no key, or another one) is refused as an expired one is.
  const handoff = browserKey ? await takeHandoff(db, hashToken(code), hashToken(browserKey), now) : undefined;
  if (!handoff) {
    throw unauthenticated("This sign-in link has expired, was already used or was started in another browser. Please sign in again.", "INVALID_TOKEN");
  }
  const user = await findAccountById(db, handoff.user_id);
  // Deactivated in the minute since the callback: refused as at the callback.
  if (!user || !user.is_active) throw unauthenticated("This account is deactivated.", "ACCOUNT_INACTIVE");
  if (!handoff.multi_factor && (await hasSecondFactor(db, user.id))) {
    return {
      mfaRequired: true,
      challenge: await openChallenge(ctx, user.id, { loginMethod: "oidc", provider: handoff.provider }),
      methods: await secondFactorMethods(db, user.id),
    };
  }
  await recordLoginAttempt(db, {
    userId: user.id,
    login: user.email.toLowerCase(),
    loginMethod: "oidc",
    provider: handoff.provider,
    multiFactor: handoff.multi_factor,
    ipAddress: client.ipAddress,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    successful: true,
    failureReason: null,
    at: now,
  });
  return finishSignIn(ctx, user, { providerTwoFactor: handoff.multi_factor, freshProof: true });
}
