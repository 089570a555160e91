import { z } from "zod";
import { isAdminRole, type Role } from "./roles.js";
import { DEMO_DEFAULTS, demoIdsSchema } from "./settings.js";

/** The three demo toggles (spec: demo settings; issue 10 gives their meaning). */
export const demoTogglesSchema = z.object({
  /** Off: the demo school and cohort are closed to everyone (no sign-in, no list, no count). */
  isDemoVisible: z.boolean(),
  /** Admins may open the demo school's dashboard by naming it (never in their filters or counts). */
  adminAccess: z.boolean(),
  /** School and district users may read the demo school's dashboard by naming it (read-only). */
  schoolAccess: z.boolean(),
});
export type DemoToggles = z.infer<typeof demoTogglesSchema>;

/** The stored 'demo' setting: which school and cohort are the demo, and the toggles. */
export const demoSettingsSchema = demoIdsSchema.extend(demoTogglesSchema.shape);
export type DemoSettings = z.infer<typeof demoSettingsSchema>;

/** Spec section 9: visible on, admin access on, school access off. */
export const DEMO_TOGGLE_DEFAULTS: DemoToggles = { isDemoVisible: true, adminAccess: true, schoolAccess: false };
export const DEMO_SETTINGS_DEFAULTS: DemoSettings = { ...DEMO_DEFAULTS, ...DEMO_TOGGLE_DEFAULTS };

/** POST /settings/demo: the toggles only; which school and cohort are the demo stays as stored. */
export const saveDemoSettingsRequestSchema = demoTogglesSchema;
export type SaveDemoSettingsRequest = z.infer<typeof saveDemoSettingsRequestSchema>;

/** GET and POST /settings/demo. */
export const demoSettingsResponseSchema = z.object({ data: demoSettingsSchema });
export type DemoSettingsResponse = z.infer<typeof demoSettingsResponseSchema>;

/**
 * Whether a role may open the demo school's dashboard by naming it: never while the demo is
 * off; admins with adminAccess, school and district users with schoolAccess (read-only). The
 * server enforces it; the web applies it only to show the link and let the route through.
 */
export function demoOpenTo(role: Role, demo: DemoToggles): boolean {
  if (!demo.isDemoVisible) return false;
  return isAdminRole(role) ? demo.adminAccess : demo.schoolAccess;
}
