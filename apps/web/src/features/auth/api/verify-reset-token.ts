import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function verifyResetToken(token: string, signal?: AbortSignal): Promise<{ valid: boolean }> {
  return apiRequest<{ valid: boolean }>("/auth/verify-reset-token", { query: { token }, auth: false, signal });
}

export function verifyResetTokenQuery(token: string) {
  return queryOptions({
    queryKey: ["auth", "verify-reset-token", token],
    queryFn: ({ signal }) => verifyResetToken(token, signal),
    staleTime: Infinity,
  });
}

export function useVerifyResetToken(token: string | null) {
  return useQuery({ ...verifyResetTokenQuery(token ?? ""), enabled: Boolean(token) });
}
