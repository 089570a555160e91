import type { MfaStatusResponse } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function getSecondFactor(): Promise<MfaStatusResponse> {
  return apiRequest<MfaStatusResponse>("/auth/mfa");
}

export const secondFactorQuery = () => queryOptions({ queryKey: queryKeys.auth.secondFactor, queryFn: getSecondFactor });

/** Whether the signed-in person has two-step sign-in, and whether they must. */
export function useSecondFactor() {
  return useQuery(secondFactorQuery());
}
