import { Alert, Stack, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { useSaveDigestSetting } from "../api/save-digest-setting";

/**
 * The weekly digest e-mails on or off (issue 30). No reply tells this page the saved choice
 * unless the session carries it (digest_enabled), so it starts from the programme's default,
 * on, and follows each answer of the server after that.
 */
export function DigestSwitch() {
  const user = useCurrentUser() as ({ digest_enabled?: boolean } & object) | null;
  const [enabled, setEnabled] = useState(user?.digest_enabled ?? true);
  const save = useSaveDigestSetting();
  return (
    <Stack gap={4}>
      <Switch
        label="Weekly digest e-mails"
        description="Once a week, the new and escalated alerts for the students you see."
        checked={enabled}
        disabled={save.isPending}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          save.mutate(next, { onSuccess: (reply) => setEnabled(reply?.enabled ?? next) });
        }}
      />
      <div role="status">
        {save.isSuccess ? <Text size="sm">{enabled ? "You will get the weekly digest." : "You will not get the weekly digest."}</Text> : null}
      </div>
      {save.isError ? (
        <Alert color="red" role="alert">
          {errorText(save.error, "Your digest setting could not be saved. Please try again.")}
        </Alert>
      ) : null}
    </Stack>
  );
}
