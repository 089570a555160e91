import { FLAG_UPLOAD_MESSAGES, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

/** The flag uploader is the super admins' tool alone (spec: Flag Uploader). */
export function assertCanUploadFlags(user: { role: Role }): void {
  if (user.role !== "super_admin") throw forbidden(FLAG_UPLOAD_MESSAGES.superAdminOnly);
}
