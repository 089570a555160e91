import type { VerifyEmailRequest, VerifyEmailResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

// POST, so the token travels in the body and stays out of request logs.
export function verifyEmail(token: string, signal?: AbortSignal): Promise<VerifyEmailResponse> {
  const body: VerifyEmailRequest = { token };
  return apiRequest<VerifyEmailResponse>("/auth/verify", { method: "POST", body, auth: false, signal });
}

export function verifyEmailQuery(token: string) {
  return queryOptions({
    queryKey: queryKeys.auth.emailToken(token),
    queryFn: ({ signal }) => verifyEmail(token, signal),
    staleTime: Infinity,
  });
}

export function useVerifyEmail(token: string | null) {
  return useQuery({ ...verifyEmailQuery(token ?? ""), enabled: Boolean(token) });
}
