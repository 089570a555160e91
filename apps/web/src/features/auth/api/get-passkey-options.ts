import type { PasskeyChallengeRequest, PasskeyOptionsResponse } from "@tally/contract";
import { apiRequest } from "../../../lib/api-client";

/** POST /auth/mfa/passkey/options: what the browser's passkey prompt needs, bound to this sign-in's challenge. */
export function getPasskeyOptions(body: PasskeyChallengeRequest): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>("/auth/mfa/passkey/options", { method: "POST", body, auth: false });
}
