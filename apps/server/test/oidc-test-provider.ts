import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

// A real OpenID provider (the oidc-provider package) for the single sign-on tests and journey:
// its own discovery, JWKS, authorization and token endpoints and its development login page
// (any account name, any password). Consent is granted without asking, so a sign-in is the
// login page and back.

export interface TestAccount {
  email?: string;
  /** Left out of the claims when undefined (as Microsoft Entra does). */
  emailVerified?: boolean;
  /** The authentication methods the sign-in reports (RFC 8176), e.g. ["pwd", "otp"]. */
  amr?: string[];
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

interface SigningKey {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  jwk: JWK;
}

async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" } };
}

export interface TestProvider {
  /** The issuer URL (http://127.0.0.1:port). */
  issuer: string;
  accounts: Record<string, TestAccount>;
  /** A new signing key, used from now on (the old one is still published). */
  rotateKeys(): Promise<void>;
  /** From now on the provider says it is `issuer` (a different one from what Tally was configured with). */
  impersonate(issuer: string): void;
  /** Change each ID token the token endpoint hands out (re-signed with the provider's key). */
  tamperIdTokens(change: ((claims: Record<string, unknown>) => void) | undefined): void;
  /** Lifetime of new authorization codes, in seconds (default 60). */
  codeTtlSeconds: number;
  /**
   * Signs `accountId` in at the provider for an authorization URL, as a browser would, and
   * returns the redirect back to the client (the callback URL with code and state).
   */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestProvider(clients: TestClient[], accounts: Record<string, TestAccount>): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys: SigningKey[] = [await newSigningKey("key-1")];
  let tamper: ((claims: Record<string, unknown>) => void) | undefined;
  const state = { codeTtlSeconds: 60 };

  const build = (as: string) => {
    const configuration: Configuration = {
      clients: clients.map((c) => ({ client_id: c.clientId, client_secret: c.clientSecret, redirect_uris: c.redirectUris })),
      // The newest key signs; the older ones stay published.
      jwks: { keys: keys.toReversed().map((k) => k.jwk) as never },
      cookies: { keys: ["test-provider-cookie-key"] },
      claims: { amr: null, acr: null, auth_time: null, sid: null, iss: null, openid: ["sub", "amr"], email: ["email", "email_verified"], profile: ["name"] },
      pkce: { required: () => true, methods: ["S256"] },
      ttl: {
        AuthorizationCode: () => state.codeTtlSeconds,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        AccessToken: 600,
        IdToken: 600,
      },
      features: { devInteractions: { enabled: true } },
      findAccount: (_ctx, sub) => {
        const account = accounts[sub];
        if (!account) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            ...(account.email === undefined ? {} : { email: account.email }),
            ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
          }),
        };
      },
      // Consent without asking: the journey's sign-in is the login page only.
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
        grant.addOIDCScope("openid email profile");
        await grant.save();
        return grant;
      },
    };
    const provider = new Provider(as, configuration);
    provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === "/token" && tamper && body?.id_token) {
        const claims = decodeJwt(body.id_token) as Record<string, unknown>;
        tamper(claims);
        const newest = keys[keys.length - 1]!;
        body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: newest.jwk.kid! }).sign(newest.privateKey);
      }
    });
    return provider;
  };

  let current = build(issuer);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // The development login page sets no `amr`: its form is taken here, with the account's methods.
    const login = /^\/interaction\/([^/]+)$/.exec(req.url ?? "");
    if (req.method === "POST" && login) return finishLogin(current, req, res, accounts);
    return current.callback()(req, res);
  });

  const provider: TestProvider = {
    issuer,
    accounts,
    async rotateKeys() {
      keys.push(await newSigningKey(`key-${keys.length + 1}`));
      current = build(issuer);
    },
    impersonate(as) {
      current = build(as);
    },
    tamperIdTokens(change) {
      tamper = change;
    },
    get codeTtlSeconds() {
      return state.codeTtlSeconds;
    },
    set codeTtlSeconds(value: number) {
      state.codeTtlSeconds = value;
    },
    signIn: (authorizationUrl, accountId) => signInAt(authorizationUrl, accountId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

async function finishLogin(provider: Provider, req: IncomingMessage, res: ServerResponse, accounts: Record<string, TestAccount>) {
  const form = await readForm(req);
  const accountId = form.get("login") ?? "";
  const amr = accounts[accountId]?.amr;
  await provider.interactionFinished(req, res, { login: { accountId, ...(amr ? { amr } : {}) } }, { mergeWithLastSubmission: false });
}

/** A browser's visit of the provider, without the browser: follows redirects, keeps cookies, posts the login form. */
async function signInAt(authorizationUrl: string, accountId: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  const visit = async (url: string, body?: URLSearchParams) => {
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      ...(body ? { body } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    await res.arrayBuffer();
    return res;
  };
  let res = await visit(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider answered ${res.status} without a redirect`);
    const next = new URL(location, origin);
    if (next.origin !== origin) return next;
    const interaction = /^\/interaction\/([^/]+)$/.exec(next.pathname);
    res = interaction
      ? await visit(next.href, new URLSearchParams({ prompt: "login", login: accountId, password: "any" }))
      : await visit(next.href);
  }
  throw new Error("too many redirects at the provider");
}
