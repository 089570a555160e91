import { z } from "zod";

/** The second factors a sign-in may be finished with. */
export const MFA_METHODS = ["totp", "passkey", "recovery"] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** POST /auth/login for an account with a second factor: no tokens yet, only the challenge to answer. */
export const mfaChallengeResponseSchema = z.object({
  mfaRequired: z.literal(true),
  /** Short-lived and single-use; answered at POST /auth/mfa/verify. */
  challenge: z.string(),
  methods: z.array(z.enum(MFA_METHODS)),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/** Six digits from the authenticator app (spaces allowed between them, as apps show them). */
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** A recovery code as handed out: ten letters and digits, shown as two groups of five. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;

/** Spaces and dashes people type or paste between the groups are ignored. */
const codeText = (message: string) =>
  z
    .string({ error: message })
    .max(64, message)
    .transform((v) => v.replace(/\s+/g, ""))
    .refine((v) => v.length > 0, message);

const totpCode = codeText("Enter the 6-digit code").refine((v) => TOTP_CODE_PATTERN.test(v), "Enter the 6-digit code");

/** POST /auth/mfa/verify: the challenge from the login reply and a TOTP or a recovery code. */
export const mfaVerifyRequestSchema = z.object({
  challenge: z.string({ error: "challenge is required" }).min(1, "challenge is required").max(128),
  code: codeText("Enter the 6-digit code or a recovery code").refine(
    (v) => TOTP_CODE_PATTERN.test(v) || RECOVERY_CODE_PATTERN.test(v),
    "Enter the 6-digit code or a recovery code",
  ),
});
export type MfaVerifyRequest = z.input<typeof mfaVerifyRequestSchema>;

/** POST /auth/mfa/totp/enroll: a new key, shown once (as text and as a QR code) until confirmed. */
export const totpEnrollResponseSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** An SVG image of otpauthUrl, for the authenticator app's camera. */
  qrSvg: z.string(),
});
export type TotpEnrollResponse = z.infer<typeof totpEnrollResponseSchema>;

/** A current code from the authenticator: confirms enrolment, removes it, regenerates recovery codes. */
export const totpCodeRequestSchema = z.object({ code: totpCode });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;

/**
 * POST /auth/mfa/reauth: proof, again, that the person holds the account before a second factor
 * is added or removed: the password, or a current code from the authenticator app.
 */
export const reauthRequestSchema = z
  .object({
    password: z.string().min(1, "Please enter your password").max(1024).optional(),
    code: totpCode.optional(),
  })
  .refine((r) => (r.password === undefined) !== (r.code === undefined), "Enter your password or a code from your authenticator app");
export type ReauthRequest = z.input<typeof reauthRequestSchema>;

/** The recovery codes, shown this once: only their hashes are kept. */
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** GET /auth/mfa: the caller's second factor. */
export const mfaStatusResponseSchema = z.object({
  totp: z.boolean(),
  /** How many passkeys the account may finish signing in with instead of a code. */
  passkeys: z.number().int(),
  recoveryCodesLeft: z.number().int(),
  /**
   * Whether this account must have a second factor before admin functions work
   * (REQUIRE_MFA_FOR_ADMINS); false for a single sign-on whose provider showed two factors.
   */
  required: z.boolean(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponseSchema>;

// Passkeys (WebAuthn). The options and the browser's answers are the JSON shapes of
// @simplewebauthn (PublicKeyCredential*OptionsJSON, RegistrationResponseJSON,
// AuthenticationResponseJSON); the contract checks their outline, the server library the rest.

/** Options for navigator.credentials.create() / .get(), as @simplewebauthn/browser takes them. */
export const passkeyOptionsResponseSchema = z.looseObject({ challenge: z.string() });
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponseSchema>;

const credentialJson = z.looseObject({
  id: z.string({ error: "response.id is required" }).min(1, "response.id is required").max(1024),
  rawId: z.string({ error: "response.rawId is required" }).max(1024),
  type: z.literal("public-key", { error: "response.type must be public-key" }),
  response: z.looseObject({ clientDataJSON: z.string({ error: "response.response.clientDataJSON is required" }).max(8192) }),
});

/** POST /auth/mfa/passkey/register: the authenticator's answer to the registration options. */
export const passkeyRegisterRequestSchema = z.object({ response: credentialJson });
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>;

/** POST /auth/mfa/passkey/options: sign-in options bound to the challenge of the login reply. */
export const passkeyChallengeRequestSchema = z.object({
  challenge: z.string({ error: "challenge is required" }).min(1, "challenge is required").max(128),
});
export type PasskeyChallengeRequest = z.input<typeof passkeyChallengeRequestSchema>;

/** POST /auth/mfa/passkey/verify: the challenge and the authenticator's signed answer. */
export const passkeyVerifyRequestSchema = passkeyChallengeRequestSchema.extend({ response: credentialJson });
export type PasskeyVerifyRequest = z.input<typeof passkeyVerifyRequestSchema>;
