import { Button, Group, NativeSelect } from "@mantine/core";
import { AUDIT_ACTION_WORDS, type AuditListResponse, auditEntityText } from "@tally/contract";
import { DateRangeInputs } from "../../../components/date-range-inputs";
import type { AuditFilterFields } from "../api/get-audit-entries";

interface Props {
  fields: AuditFilterFields;
  choices: AuditListResponse["choices"] | undefined;
  onChange: (patch: Partial<AuditFilterFields>) => void;
  onExport: () => void;
  exporting: boolean;
  canExport: boolean;
}

const any = (label: string) => ({ value: "", label });

/** The action in words ("Changed" and "Sent" alone, as their entity varies); an unknown code as stored. */
const actionLabel = (action: string) => (AUDIT_ACTION_WORDS as Record<string, string | undefined>)[action] ?? action;

/** Who, what (action, entity) and the date range of the audit page, and its CSV export. */
export function AuditFilters({ fields, choices, onChange, onExport, exporting, canExport }: Props) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <NativeSelect
        label="Who"
        data={[any("Everyone"), ...(choices?.actors ?? []).map((a) => ({ value: String(a.id), label: a.name }))]}
        value={fields.actorId}
        onChange={(e) => onChange({ actorId: e.currentTarget.value })}
      />
      <NativeSelect
        label="Action"
        data={[any("Any action"), ...(choices?.actions ?? []).map((a) => ({ value: a, label: actionLabel(a) }))]}
        value={fields.action}
        onChange={(e) => onChange({ action: e.currentTarget.value })}
      />
      <NativeSelect
        label="Entity"
        data={[any("Anything"), ...(choices?.entities ?? []).map((e) => ({ value: e, label: auditEntityText(e) }))]}
        value={fields.entity}
        onChange={(e) => onChange({ entity: e.currentTarget.value })}
      />
      <DateRangeInputs from={fields.from} to={fields.to} onChange={onChange} />
      <Button variant="light" onClick={onExport} loading={exporting} disabled={!canExport}>
        Export CSV
      </Button>
    </Group>
  );
}
