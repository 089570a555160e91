import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { errorText } from "../../../lib/api-error";
import { bindText } from "../../../lib/text-binding";
import { useReauthenticate } from "../api/reauthenticate";
import { CodeForm } from "./code-form";

interface Props {
  /** Whether an authenticator app is on: its code is then offered instead of the password. */
  codeAllowed: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}

/**
 * Before a second factor is added: the password (or a current code) again, so a session taken
 * over on another machine cannot add its own factor. The server keeps the proof for a few minutes.
 */
export function ReauthForm({ codeAllowed, onConfirmed, onCancel }: Props) {
  const reauth = useReauthenticate();
  const [password, setPassword] = useState("");
  const [useCode, setUseCode] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setProblem("Please enter your password");
    setProblem(undefined);
    reauth.mutate({ password }, { onSuccess: onConfirmed });
  };
  return (
    <Stack gap="sm" data-testid="reauth-form">
      <Text size="sm">{MESSAGES.reauthRequired}</Text>
      {reauth.isError ? (
        <Alert color="red" role="alert">
          {errorText(reauth.error, "Could not confirm. Please try again.")}
        </Alert>
      ) : null}
      {useCode ? (
        <CodeForm submitLabel="Confirm" pending={reauth.isPending} onSubmit={(code) => reauth.mutate({ code }, { onSuccess: onConfirmed })} />
      ) : (
        <form onSubmit={submitPassword} noValidate>
          <Group align="flex-end">
            <PasswordInput label="Your password" name="password" autoComplete="current-password" miw={240} {...bindText(password, setPassword)} error={problem} />
            <Button type="submit" loading={reauth.isPending}>
              Confirm
            </Button>
          </Group>
        </form>
      )}
      <Group gap="md">
        {codeAllowed ? (
          <Anchor component="button" type="button" size="sm" onClick={() => setUseCode(!useCode)}>
            {useCode ? "Use your password instead" : "Use a code from your authenticator app instead"}
          </Anchor>
        ) : null}
        <Anchor component="button" type="button" size="sm" onClick={onCancel}>
          Cancel
        </Anchor>
      </Group>
      <Text size="xs" c="dimmed">
        Signed in with single sign-on and no Tally password? Sign out, sign in again with your provider, and add it within a few
        minutes.
      </Text>
    </Stack>
  );
}
