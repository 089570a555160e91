import type { TotpEnrollResponse } from "@tally/contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** A new authenticator key (as text and QR code), waiting for its first code. */
export function enrollTotp(): Promise<TotpEnrollResponse> {
  return apiRequest<TotpEnrollResponse>("/auth/mfa/totp/enroll", { method: "POST" });
}

export function useEnrollTotp() {
  return useMutation({ mutationFn: enrollTotp });
}
