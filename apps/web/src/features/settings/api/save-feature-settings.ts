import type { SaveFeatureSettingsRequest, SaveFeatureSettingsResponse } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { FEATURE_SETTINGS_KEY } from "./get-admin-feature-settings";

export function saveFeatureSettings(body: SaveFeatureSettingsRequest) {
  return apiRequest<SaveFeatureSettingsResponse>("/settings/features", { method: "POST", body });
}

export function useSaveFeatureSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFeatureSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FEATURE_SETTINGS_KEY }),
  });
}
