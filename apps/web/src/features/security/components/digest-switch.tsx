import { Alert, Stack, Switch, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { errorText } from "../../../lib/api-error";
import { queryKeys } from "../../../lib/query-keys";
import { useDigestSetting } from "../api/get-digest-setting";
import { useSaveDigestSetting } from "../api/save-digest-setting";

/** The weekly digest e-mails on or off (issue 30): the saved choice (GET /profile/digest), changed by PUT. */
export function DigestSwitch() {
  const saved = useDigestSetting();
  const queryClient = useQueryClient();
  const enabled = saved.data?.enabled ?? true;
  const save = useSaveDigestSetting();
  return (
    <Stack gap={4}>
      <Switch
        label="Weekly digest e-mails"
        description="Once a week, the new and escalated alerts for the students you see."
        checked={enabled}
        disabled={save.isPending || saved.isPending}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          save.mutate(next, { onSuccess: (reply) => queryClient.setQueryData(queryKeys.digestSetting, { enabled: reply?.enabled ?? next }) });
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
