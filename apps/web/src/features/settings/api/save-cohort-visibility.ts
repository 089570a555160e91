import type { CohortVisibilitySetting, SaveCohortVisibilityRequest, SaveCohortVisibilityResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** POST /settings/cohort-visibility: writes the rows given (all or nothing); others stay. */
export function saveCohortVisibility(settings: CohortVisibilitySetting[]) {
  const body: SaveCohortVisibilityRequest = { settings };
  return apiRequest<SaveCohortVisibilityResponse>("/settings/cohort-visibility", { method: "POST", body });
}

export function useSaveCohortVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCohortVisibility,
    // The reply holds every stored row: no need to fetch them again.
    onSuccess: (reply) => queryClient.setQueryData(queryKeys.settings.cohortVisibility, reply.data),
  });
}
