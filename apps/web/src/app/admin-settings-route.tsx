import { AdminSettingsPage } from "../features/settings/components/admin-settings-page";
import { UserManagementSection } from "../features/users/components/user-management-section";

/** Admin Settings with the users feature's list as section 1 (features do not import each other). */
export function AdminSettingsRoute() {
  return <AdminSettingsPage userManagement={<UserManagementSection />} />;
}
