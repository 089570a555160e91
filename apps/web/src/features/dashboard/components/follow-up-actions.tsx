import { Alert as Notice, Button, Group, NativeSelect, Stack, Textarea } from "@mantine/core";
import type { Alert } from "@tally/contract";
import { useState } from "react";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { type AlertAction, useActOnAlert } from "../api/act-on-alert";
import { useStaffUsers } from "../api/get-staff-users";

type Form = "resolve" | "dismiss" | "assign" | null;

const TEXT_FORMS = {
  resolve: { label: "Resolution note", button: "Resolve", required: "A note is required to resolve an alert." },
  dismiss: { label: "Reason for dismissing", button: "Dismiss", required: "A reason is required to dismiss an alert." },
} as const;

/**
 * Acknowledge, resolve (with a note), dismiss (with a reason) and assign one alert: admins to
 * any staff user who sees the student; everyone else to themselves (they cannot list the staff),
 * so a coordinator can take a call and find it under "Assigned to me".
 */
export function FollowUpActions({ alert, canAssign }: { alert: Alert; canAssign: boolean }) {
  const me = useCurrentUser();
  const act = useActOnAlert();
  const [form, setForm] = useState<Form>(null);
  const [text, setText] = useState("");
  const [missing, setMissing] = useState<string | null>(null);
  const [assignee, setAssignee] = useState(alert.assigneeId === null ? "" : String(alert.assigneeId));
  const users = useStaffUsers(canAssign && form === "assign");
  const closed = alert.state === "resolved" || alert.state === "dismissed";

  const run = (a: AlertAction) =>
    act.mutate(
      { alertId: alert.id, act: a },
      {
        onSuccess: () => {
          setForm(null);
          setText("");
        },
      },
    );
  const open = (next: Form) => {
    setForm(form === next ? null : next);
    setText("");
    setMissing(null);
  };
  const submitText = (kind: "resolve" | "dismiss") => {
    const value = text.trim();
    if (!value) {
      setMissing(TEXT_FORMS[kind].required);
      return;
    }
    run(kind === "resolve" ? { action: "resolve", note: value } : { action: "dismiss", reason: value });
  };

  return (
    <Stack gap="xs">
      {closed ? null : (
        <Group gap="xs" wrap="wrap">
          {alert.state === "open" ? (
            <Button size="xs" onClick={() => run({ action: "acknowledge" })} loading={act.isPending && form === null}>
              Acknowledge
            </Button>
          ) : null}
          <Button size="xs" variant="light" onClick={() => open("resolve")} aria-expanded={form === "resolve"}>
            Resolve…
          </Button>
          <Button size="xs" variant="light" onClick={() => open("dismiss")} aria-expanded={form === "dismiss"}>
            Dismiss…
          </Button>
          {canAssign ? (
            <Button size="xs" variant="light" onClick={() => open("assign")} aria-expanded={form === "assign"}>
              Assign…
            </Button>
          ) : me && alert.assigneeId === me.id ? (
            <Button size="xs" variant="light" onClick={() => run({ action: "assign", userId: null })} loading={act.isPending && form === null}>
              Unassign me
            </Button>
          ) : me ? (
            <Button size="xs" variant="light" onClick={() => run({ action: "assign", userId: me.id })} loading={act.isPending && form === null}>
              Assign to me
            </Button>
          ) : null}
        </Group>
      )}
      {form === "resolve" || form === "dismiss" ? (
        <Stack gap="xs">
          <Textarea
            label={TEXT_FORMS[form].label}
            required
            rows={3}
            maxLength={2000}
            value={text}
            error={missing}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setMissing(null);
            }}
          />
          <Group gap="xs">
            <Button size="xs" onClick={() => submitText(form)} loading={act.isPending}>
              {TEXT_FORMS[form].button}
            </Button>
            <Button size="xs" variant="default" onClick={() => open(null)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : null}
      {form === "assign" ? (
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NativeSelect
            label="Assign to"
            value={assignee}
            onChange={(e) => setAssignee(e.currentTarget.value)}
            data={[
              { value: "", label: users.isPending ? "Loading staff…" : "Nobody" },
              ...(users.data ?? [])
                .filter((u) => u.is_active)
                .map((u) => ({ value: String(u.id), label: `${u.username} (${u.email})` })),
            ]}
          />
          <Button size="xs" onClick={() => run({ action: "assign", userId: assignee ? Number(assignee) : null })} loading={act.isPending}>
            Save assignee
          </Button>
        </Group>
      ) : null}
      {act.isError ? (
        <Notice color="red" role="alert">
          {errorText(act.error, "The alert could not be changed. Please try again.")}
        </Notice>
      ) : null}
    </Stack>
  );
}
