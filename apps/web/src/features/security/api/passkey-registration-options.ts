import type { PasskeyOptionsResponse } from "@tally/contract";
import { apiRequest } from "../../../lib/api-client";

/** POST /auth/mfa/passkey/register/options: what the browser needs to make a passkey for Tally. */
export function getPasskeyRegistrationOptions(): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>("/auth/mfa/passkey/register/options", { method: "POST" });
}
