import { MultiSelect, Select } from "@mantine/core";
import type { Role, SchoolItem } from "@tally/contract";

const SEARCH = { searchable: true, limit: 200, nothingFoundMessage: "No schools found" } as const;

const options = (schools: SchoolItem[]) => schools.map((s) => ({ value: String(s.id), label: s.name }));

interface SchoolSelectProps {
  schools: SchoolItem[];
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
  required?: boolean;
}

/** A searchable choice of one school. */
export function SchoolSelect({ schools, value, onChange, error, required }: SchoolSelectProps) {
  return (
    <Select
      label="School"
      placeholder="Select a school"
      data={options(schools)}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      error={error}
      required={required}
      {...SEARCH}
    />
  );
}

interface Props {
  role: Role | null;
  schools: SchoolItem[];
  schoolId: number | null;
  schoolIds: number[];
  onSchoolId: (id: number | null) => void;
  onSchoolIds: (ids: number[]) => void;
  errors: { school_id?: string; school_ids?: string };
}

/** One school for a school user, several for a district user, none for the other roles. */
export function SchoolFields({ role, schools, schoolId, schoolIds, onSchoolId, onSchoolIds, errors }: Props) {
  if (role === "school_user") {
    return <SchoolSelect schools={schools} value={schoolId} onChange={onSchoolId} error={errors.school_id} required />;
  }
  if (role === "district_user") {
    return (
      <MultiSelect
        label="Schools"
        placeholder={schoolIds.length === 0 ? "Select schools" : undefined}
        data={options(schools)}
        value={schoolIds.map(String)}
        onChange={(v) => onSchoolIds(v.map(Number))}
        error={errors.school_ids}
        required
        {...SEARCH}
      />
    );
  }
  return null;
}
