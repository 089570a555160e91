import type { MessageBody } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export function verifyEmail(token: string, signal?: AbortSignal): Promise<MessageBody> {
  return apiRequest<MessageBody>("/auth/verify", { query: { token }, auth: false, signal });
}

export function verifyEmailQuery(token: string) {
  return queryOptions({
    queryKey: ["auth", "verify", token],
    queryFn: ({ signal }) => verifyEmail(token, signal),
    staleTime: Infinity,
  });
}

export function useVerifyEmail(token: string | null) {
  return useQuery({ ...verifyEmailQuery(token ?? ""), enabled: Boolean(token) });
}
