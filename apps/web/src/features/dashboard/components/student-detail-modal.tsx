import { Button, Group, Modal, Stack, Tabs } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { isAdminRole, type SessionUser, type StudentDetail } from "@tally/contract";
import { useState } from "react";
import { EmptyState } from "../../../components/empty-state";
import { SectionLoader } from "../../../components/section-loader";
import { useReturnFocus } from "../../../lib/use-return-focus";
import { useFeatureSettings } from "../../../lib/feature-settings";
import { useStudent } from "../api/get-student";
import { useWeeklyData } from "../api/get-weekly-data";
import { EraseStudentDialog } from "./erase-student-dialog";
import { latestCohort } from "./latest-cohort";
import { StudentAccessTab } from "./student-access-tab";
import { StudentAttendanceTab } from "./student-attendance-tab";
import { studentName } from "./student-card";
import { StudentEditForm } from "./student-edit-form";
import { StudentFollowUpTab } from "./student-follow-up-tab";
import { StudentOverviewTab } from "./student-overview-tab";
import { StudentWeeklyTab } from "./student-weekly-tab";

export const STUDENT_TABS = ["overview", "attendance", "follow-up", "flags", "reflections", "advisor-notes", "access"] as const;
type StudentTab = (typeof STUDENT_TABS)[number];

interface Props {
  studentId: number;
  user: SessionUser;
  onClose: () => void;
  /** The tab to open first (a link's ?tab=follow-up); anything unknown opens Overview. */
  initialTab?: string | null;
}

const firstTab = (tab: string | null | undefined): StudentTab =>
  (STUDENT_TABS as readonly string[]).includes(tab ?? "") ? (tab as StudentTab) : "overview";

/** Admins may always edit; others when enableStudentEditing is on for the student's school. */
function useCanEdit(user: SessionUser, student: StudentDetail | undefined): boolean {
  const admin = isAdminRole(user.role);
  const features = useFeatureSettings(student?.school_id ?? null, !admin && student !== undefined);
  if (!student) return false;
  if (admin) return true;
  return features.data?.enableStudentEditing ?? false;
}

function TabBody({ tab, student, user, canEdit }: { tab: string; student: StudentDetail; user: SessionUser; canEdit: boolean }) {
  const cohort = latestCohort(student);
  const weeklyTab = tab === "flags" || tab === "reflections" || tab === "advisor-notes";
  const weekly = useWeeklyData(student.id, cohort?.id ?? null, weeklyTab);
  switch (tab) {
    case "overview":
      return <StudentOverviewTab student={student} />;
    case "attendance":
      return <StudentAttendanceTab student={student} canEdit={canEdit} />;
    case "follow-up":
      // Only admins can list staff (GET /users), so only they are offered Assign.
      return <StudentFollowUpTab studentId={student.id} canAssign={isAdminRole(user.role)} />;
    case "flags":
      return <StudentWeeklyTab weekly={weekly} kind="flags" />;
    case "reflections":
      return <StudentWeeklyTab weekly={weekly} kind="reflection" />;
    case "advisor-notes":
      return <StudentWeeklyTab weekly={weekly} kind="advisor_notes" />;
    case "access":
      return <StudentAccessTab studentId={student.id} />;
    default:
      return <EmptyState message="Unknown tab selected" />;
  }
}

function ModalBody({ studentId, user, onClose, initialTab }: Props) {
  const [tab, setTab] = useState<StudentTab>(() => firstTab(initialTab));
  const [editing, setEditing] = useState(false);
  const [erasing, setErasing] = useState(false);
  const student = useStudent(studentId);
  const canEdit = useCanEdit(user, student.data);
  if (student.isPending) {
    return <SectionLoader label="Loading student" py="xl" />;
  }
  if (student.isError || !student.data) return <EmptyState message="No student data available" />;
  if (editing) {
    return (
      <StudentEditForm
        student={student.data}
        canChooseSchool={user.role !== "school_user"}
        canChangeEmail={isAdminRole(user.role)}
        onDone={() => setEditing(false)}
      />
    );
  }
  return (
    <Stack gap="sm">
      {canEdit ? (
        <Group justify="flex-end">
          <Button size="xs" variant="light" onClick={() => setEditing(true)}>
            Edit Student
          </Button>
          {/* Issue 32: erasure is the admins'. */}
          {isAdminRole(user.role) ? (
            <Button size="xs" variant="light" color="red" onClick={() => setErasing(true)}>
              Erase student
            </Button>
          ) : null}
        </Group>
      ) : null}
      {erasing ? <EraseStudentDialog student={student.data} onClose={() => setErasing(false)} onErased={onClose} /> : null}
      <Tabs value={tab} onChange={(v) => setTab((v ?? "overview") as StudentTab)} keepMounted={false}>
        <Tabs.List aria-label="Student details">
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="attendance">Attendance</Tabs.Tab>
          <Tabs.Tab value="follow-up">Follow-up</Tabs.Tab>
          <Tabs.Tab value="flags">Flags</Tabs.Tab>
          <Tabs.Tab value="reflections">Reflections</Tabs.Tab>
          <Tabs.Tab value="advisor-notes">Advisor Notes</Tabs.Tab>
          {/* Issue 32: who viewed or exported this student's records; the record is the admins' to read. */}
          {isAdminRole(user.role) ? <Tabs.Tab value="access">Access</Tabs.Tab> : null}
        </Tabs.List>
        {STUDENT_TABS.filter((t) => t !== "access" || isAdminRole(user.role)).map((t) => (
          <Tabs.Panel key={t} value={t} pt="md">
            <TabBody tab={t} student={student.data} user={user} canEdit={canEdit} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

/** Student detail dialog opened by a card's View Details. */
export function StudentDetailModal({ studentId, user, onClose, initialTab }: Props) {
  const fullScreen = useMediaQuery("(max-width: 36em)");
  const student = useStudent(studentId);
  const title = student.data ? studentName(student.data) : "Student Details";
  useReturnFocus();
  return (
    <Modal opened onClose={onClose} title={title} size="xl" fullScreen={fullScreen}>
      <ModalBody studentId={studentId} user={user} onClose={onClose} initialTab={initialTab} />
    </Modal>
  );
}
