import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { MESSAGES, type MfaMethod, type SignedInResponse } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { ApiError } from "../../../lib/api-error";
import { bindText } from "../../../lib/text-binding";
import { useSignInWithPasskey } from "../api/verify-passkey";
import { useVerifySecondFactor } from "../api/verify-second-factor";

function codeErrorText(error: unknown): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  return MESSAGES.loginFailedRetry;
}

interface Props {
  challenge: string;
  /** The methods the login reply named: "Use a passkey" only when the account has one. */
  methods: readonly MfaMethod[];
  onSignedIn: (reply: SignedInResponse) => void;
  /** The challenge is gone (used, expired): back to the password. */
  onRestart: () => void;
}

/** The sign-in's second step for an account with two-step sign-in: the authenticator's code, or a recovery code. */
export function SecondFactorStep({ challenge, methods, onSignedIn, onRestart }: Props) {
  const [code, setCode] = useState("");
  const [useRecovery, setUseRecovery] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const verify = useVerifySecondFactor();
  const passkey = useSignInWithPasskey();
  const expired = [verify.error, passkey.error].some((e) => e instanceof ApiError && e.code === "MFA_CHALLENGE_INVALID");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, "");
    const error = useRecovery
      ? typed
        ? undefined
        : "Enter one of your recovery codes"
      : /^\d{6}$/.test(typed)
        ? undefined
        : MESSAGES.mfaEnterCode;
    setFieldError(error);
    if (error) return;
    verify.mutate({ challenge, code: typed }, { onSuccess: onSignedIn });
  };

  return (
    <Stack gap="md">
      {verify.isError ? (
        <Alert color="red" role="alert" data-testid="mfa-error">
          {codeErrorText(verify.error)}
        </Alert>
      ) : null}
      {passkey.isError ? (
        <Alert color="red" role="alert" data-testid="passkey-error">
          {passkey.error instanceof ApiError && passkey.error.fromServer ? passkey.error.message : MESSAGES.passkeyFailed}
        </Alert>
      ) : null}
      {methods.includes("passkey") && !expired ? (
        <Button variant="default" fullWidth loading={passkey.isPending} onClick={() => passkey.mutate(challenge, { onSuccess: onSignedIn })}>
          Use a passkey
        </Button>
      ) : null}
      {expired ? (
        <Button variant="default" onClick={onRestart}>
          Sign in again
        </Button>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {useRecovery
                ? "Enter one of the recovery codes you saved when you set up two-step sign-in."
                : "Open your authenticator app and enter the code it shows for Tally."}
            </Text>
            <TextInput
              label={useRecovery ? "Recovery code" : MESSAGES.mfaEnterCode}
              name="code"
              autoComplete="one-time-code"
              inputMode={useRecovery ? "text" : "numeric"}
              data-autofocus
              {...bindText(code, setCode)}
              error={fieldError}
            />
            <Button type="submit" fullWidth loading={verify.isPending}>
              Verify
            </Button>
          </Stack>
        </form>
      )}
      {expired ? null : (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery((v) => !v);
            setCode("");
            setFieldError(undefined);
          }}
        >
          {useRecovery ? "Use the code from your authenticator app" : "Use a recovery code instead"}
        </Anchor>
      )}
    </Stack>
  );
}
