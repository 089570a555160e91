import type { VerifyResetTokenRequest, VerifyResetTokenResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

// POST, so the token travels in the body and stays out of request logs.
export function verifyResetToken(token: string, signal?: AbortSignal): Promise<VerifyResetTokenResponse> {
  const body: VerifyResetTokenRequest = { token };
  return apiRequest<VerifyResetTokenResponse>("/auth/verify-reset-token", { method: "POST", body, auth: false, signal });
}

export function verifyResetTokenQuery(token: string) {
  return queryOptions({
    queryKey: queryKeys.auth.resetToken(token),
    queryFn: ({ signal }) => verifyResetToken(token, signal),
    staleTime: Infinity,
  });
}

export function useVerifyResetToken(token: string | null) {
  return useQuery({ ...verifyResetTokenQuery(token ?? ""), enabled: Boolean(token) });
}
