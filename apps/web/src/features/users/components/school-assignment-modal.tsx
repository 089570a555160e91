import type { UserListItem } from "@tally/contract";
import { ModalShell } from "../../../components/modal-shell";
import { SchoolAccessPanel } from "./school-access-panel";
import { SchoolAssignmentForm } from "./school-assignment-form";

interface Props {
  user: UserListItem;
  onClose: () => void;
  /** The /users page calls the district dialog "School Access Management". */
  districtTitle?: string;
}

/** "School Access" (district users: several schools) or "School Assignment" (one school). */
export function SchoolAssignmentModal({ user, onClose, districtTitle = "School Access" }: Props) {
  const district = user.role === "district_user";
  return (
    <ModalShell title={district ? districtTitle : "School Assignment"} onClose={onClose} size="lg">
      {district ? (
        <SchoolAccessPanel user={user} onCancel={onClose} />
      ) : (
        <SchoolAssignmentForm user={user} onCancel={onClose} />
      )}
    </ModalShell>
  );
}
