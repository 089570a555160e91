import type { BenefitIdConflict } from "@tally/contract";
import { Alert, Anchor, Button, List, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { studentLink } from "../../../lib/student-link";

/** A whole cohort can clash with older records: the first few are listed, the rest one click away. */
export const CONFLICTS_SHOWN = 5;

interface Props {
  conflicts: readonly BenefitIdConflict[];
  /** Before the import: what it will do; after: what it did. */
  when: "before" | "after";
}

/** Opens the student's details on the dashboard, in a new tab so the uploader's work stays. */
function StudentAnchor({ student }: { student: BenefitIdConflict["student"] }) {
  return (
    <Anchor component={Link} to={studentLink(student.id)} target="_blank" rel="noopener" inherit>
      {student.name}
    </Anchor>
  );
}

/**
 * Benefit Assignment IDs the CRM report gives a student while another student holds them: a
 * warning of its own, never part of the success message, naming the ID and both students.
 */
export function BenefitIdConflicts({ conflicts, when }: Props) {
  const [all, setAll] = useState(false);
  if (conflicts.length === 0) return null;
  const n = conflicts.length;
  const shown = all ? conflicts : conflicts.slice(0, CONFLICTS_SHOWN);
  const title = `${n} Benefit Assignment ID${n === 1 ? "" : "s"} already held by another student`;
  return (
    <Alert color="yellow" title={title} data-testid="benefit-id-conflicts">
      <Text size="sm" mb="xs">
        {when === "before"
          ? "The ID stays with the student who holds it; the student the CRM report gives it to will be imported without one. Check both students."
          : "The ID stayed with the student who holds it; the student the CRM report gives it to was imported without one. Check both students."}
      </Text>
      <List size="sm" spacing={4}>
        {shown.map((c) => (
          <List.Item key={`${c.benefitAssignmentId}:${c.student.id}`}>
            <Text span fw={700} size="sm">
              {c.benefitAssignmentId}
            </Text>{" "}
            is held by <StudentAnchor student={c.heldBy} />; the CRM report gives it to <StudentAnchor student={c.student} />.
          </List.Item>
        ))}
      </List>
      {n > CONFLICTS_SHOWN ? (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? `Show the first ${CONFLICTS_SHOWN}` : `Show all ${n}`}
        </Button>
      ) : null}
    </Alert>
  );
}
