import { FLAG_UPLOAD_MESSAGES, type Role } from "@tally/contract";

/** The flag uploader is the super admins' tool alone (spec: Flag Uploader; the routes' guard). */
export const FLAG_UPLOADERS = { roles: ["super_admin"] as readonly Role[], refused: FLAG_UPLOAD_MESSAGES.superAdminOnly } as const;
