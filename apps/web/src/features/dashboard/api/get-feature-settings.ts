import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export interface FeatureToggles {
  enableExport: boolean;
  enableStudentEditing: boolean;
}

const DEFAULTS: FeatureToggles = { enableExport: true, enableStudentEditing: true };

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

/** Reads the feature toggles that apply to one school; anything malformed keeps the default. */
export function togglesFor(reply: unknown, schoolId: number | null): FeatureToggles {
  const outer = typeof reply === "object" && reply !== null ? (reply as Record<string, unknown>) : {};
  const raw = (outer.data ?? outer.settings ?? outer) as Record<string, unknown>;
  if (typeof raw !== "object" || raw === null) return DEFAULTS;
  const global: FeatureToggles = {
    enableExport: flag(raw.enableExport, DEFAULTS.enableExport),
    enableStudentEditing: flag(raw.enableStudentEditing, DEFAULTS.enableStudentEditing),
  };
  if (raw.applyToAllSchools !== false || schoolId === null) return global;
  const perSchool = (raw.schoolSettings as Record<string, Record<string, unknown>> | undefined)?.[String(schoolId)];
  if (!perSchool || typeof perSchool !== "object") return global;
  return {
    enableExport: flag(perSchool.enableExport, global.enableExport),
    enableStudentEditing: flag(perSchool.enableStudentEditing, global.enableStudentEditing),
  };
}

/** Spec: when the feature check fails the feature stays on (the server still enforces it). */
export async function getFeatureSettings(schoolId: number | null, signal?: AbortSignal): Promise<FeatureToggles> {
  try {
    const reply = await apiRequest<unknown>("/settings/features", {
      signal,
      query: { school_id: schoolId ?? undefined },
    });
    return togglesFor(reply, schoolId);
  } catch {
    return DEFAULTS;
  }
}

export function featureSettingsQuery(schoolId: number | null, enabled = true) {
  return queryOptions({
    queryKey: ["settings", "features", { schoolId }],
    queryFn: ({ signal }) => getFeatureSettings(schoolId, signal),
    enabled,
  });
}

export function useFeatureSettings(schoolId: number | null, enabled = true) {
  return useQuery(featureSettingsQuery(schoolId, enabled));
}
