import { FEATURE_DEFAULTS, type FeatureSettingsResponse, type FeatureToggles } from "@tally/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "./api-client";
import { queryKeys } from "./query-keys";

export type { FeatureToggles } from "@tally/contract";

const DEFAULTS: FeatureToggles = {
  enableExport: FEATURE_DEFAULTS.enableExport,
  enableStudentEditing: FEATURE_DEFAULTS.enableStudentEditing,
};

/**
 * The toggles in force at one school, as the server resolves them. Spec: when the feature
 * check fails the feature stays on (the server still enforces it).
 */
export async function getFeatureSettings(schoolId: number | null, signal?: AbortSignal): Promise<FeatureToggles> {
  try {
    const reply = await apiRequest<FeatureSettingsResponse>("/settings/features", {
      signal,
      query: { school_id: schoolId ?? undefined },
    });
    return { enableExport: reply.effective.enableExport, enableStudentEditing: reply.effective.enableStudentEditing };
  } catch {
    return DEFAULTS;
  }
}

export function featureSettingsQuery(schoolId: number | null, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.settings.features.atSchool(schoolId),
    queryFn: ({ signal }) => getFeatureSettings(schoolId, signal),
    enabled,
  });
}

export function useFeatureSettings(schoolId: number | null, enabled = true) {
  return useQuery(featureSettingsQuery(schoolId, enabled));
}
