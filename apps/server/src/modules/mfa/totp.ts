import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

// RFC 6238 with the defaults every authenticator app reads: SHA-1, 6 digits, 30 seconds.
const PERIOD = 30;
const ISSUER = "Tally";

const totpFor = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: PERIOD });

/** A new 160-bit key, as base32 (what the person types when the camera cannot be used). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL and its QR code as SVG. */
export async function totpEnrolment(secret: string, label: string): Promise<{ otpauthUrl: string; qrSvg: string }> {
  const otpauthUrl = totpFor(secret, label).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { otpauthUrl, qrSvg };
}

/**
 * The time step the code belongs to when it is right at `now` give or take one step (a phone's
 * clock a little off, a code typed as it turned over), else null. The caller makes sure each
 * step is accepted only once.
 */
export function checkTotpCode(secret: string, code: string, now: Date): number | null {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), period: PERIOD, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD, timestamp: now.getTime() }) + delta;
}

/** The code for `at` (tests and the browser journeys stand in for the authenticator app with it). */
export function totpCodeAt(secret: string, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), period: PERIOD, timestamp: at.getTime() });
}
