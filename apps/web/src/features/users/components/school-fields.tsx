import { MultiSelect, Select } from "@mantine/core";
import type { Role, SchoolItem } from "@tally/contract";

interface Props {
  role: Role | null;
  schools: SchoolItem[];
  schoolId: number | null;
  schoolIds: number[];
  onSchoolId: (id: number | null) => void;
  onSchoolIds: (ids: number[]) => void;
  errors: { school_id?: string; school_ids?: string };
  disabled?: boolean;
}

/** One school for a school user, several for a district user, none for the other roles. */
export function SchoolFields({ role, schools, schoolId, schoolIds, onSchoolId, onSchoolIds, errors, disabled }: Props) {
  const data = schools.map((s) => ({ value: String(s.id), label: s.name }));
  if (role === "school_user") {
    return (
      <Select
        label="School"
        placeholder="Select a school"
        data={data}
        value={schoolId === null ? null : String(schoolId)}
        onChange={(v) => onSchoolId(v ? Number(v) : null)}
        error={errors.school_id}
        searchable
        limit={200}
        nothingFoundMessage="No schools found"
        disabled={disabled}
        required
      />
    );
  }
  if (role === "district_user") {
    return (
      <MultiSelect
        label="Schools"
        placeholder={schoolIds.length === 0 ? "Select schools" : undefined}
        data={data}
        value={schoolIds.map(String)}
        onChange={(v) => onSchoolIds(v.map(Number))}
        error={errors.school_ids}
        searchable
        limit={200}
        nothingFoundMessage="No schools found"
        disabled={disabled}
        required
      />
    );
  }
  return null;
}
