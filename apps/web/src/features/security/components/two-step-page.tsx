import { Alert, Anchor, Badge, Button, Divider, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { useState } from "react";
import { Link } from "react-router";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useCurrentUser } from "../../../lib/auth-store";
import { homePath } from "../../../lib/route-access";
import { useSecondFactor } from "../api/get-second-factor";
import { useAddPasskey } from "../api/register-passkey";
import { useRegenerateRecoveryCodes } from "../api/regenerate-recovery-codes";
import { useRemoveTotp } from "../api/remove-totp";
import { CodeForm } from "./code-form";
import { DigestSwitch } from "./digest-switch";
import { RecoveryCodesList } from "./recovery-codes-list";
import { ReauthForm } from "./reauth-form";
import { needsReauth, TotpEnrolment } from "./totp-enrolment";

/** The signed-in person's two-step sign-in: set it up, make new recovery codes, turn it off. */
export function TwoStepPage() {
  const user = useCurrentUser();
  const status = useSecondFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const remove = useRemoveTotp();
  const addPasskey = useAddPasskey();
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1} fz="h2">
            Two-step sign-in
          </Title>
          {status.data ? (
            <Badge color={status.data.totp ? "green" : "gray"} data-testid="two-step-state">
              {status.data.totp ? "On" : "Off"}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          After your password, Tally asks for a code from an authenticator app on your phone, so a stolen
          password alone cannot open your account.
        </Text>
        {status.isPending ? <SectionLoader label="Loading two-step sign-in" /> : null}
        {status.isError ? <Alert color="red">{errorText(status.error, "Could not load your two-step sign-in.")}</Alert> : null}
        {status.data?.required && !status.data.totp ? (
          <Alert color="orange" role="alert" data-testid="mfa-required-notice">
            {MESSAGES.mfaEnrolmentRequired}
          </Alert>
        ) : null}
        {freshCodes ? <RecoveryCodesList codes={freshCodes} onDone={() => setFreshCodes(null)} /> : null}
        {status.data && !status.data.totp && !freshCodes ? <TotpEnrolment onConfirmed={setFreshCodes} /> : null}
        {status.data?.totp && !freshCodes ? (
          <Stack gap="md">
            <Text size="sm" data-testid="recovery-codes-left">
              {status.data.recoveryCodesLeft} unused recovery codes left.
            </Text>
            <Divider label="Passkeys" labelPosition="left" />
            <Text size="sm" data-testid="passkey-count">
              {status.data.passkeys === 0
                ? "No passkey yet. A passkey (your device's fingerprint, face or PIN) can finish signing in instead of a code."
                : `${status.data.passkeys} passkey${status.data.passkeys === 1 ? "" : "s"} can finish signing in instead of a code.`}
            </Text>
            {needsReauth(addPasskey.error) ? (
              <ReauthForm codeAllowed onConfirmed={() => addPasskey.mutate()} onCancel={() => addPasskey.reset()} />
            ) : (
              <>
                {addPasskey.isError ? <Alert color="red">{errorText(addPasskey.error, MESSAGES.passkeyRegistrationFailed)}</Alert> : null}
                {addPasskey.isSuccess ? <Alert color="green">Passkey added.</Alert> : null}
                <Group>
                  <Button variant="default" loading={addPasskey.isPending} onClick={() => addPasskey.mutate()}>
                    Add a passkey
                  </Button>
                </Group>
              </>
            )}
            <Divider label="New recovery codes" labelPosition="left" />
            {regenerate.isError ? <Alert color="red">{errorText(regenerate.error, "Could not make new codes.")}</Alert> : null}
            <CodeForm
              submitLabel="Make new codes"
              pending={regenerate.isPending}
              onSubmit={(code) => regenerate.mutate({ code }, { onSuccess: (reply) => setFreshCodes(reply.recoveryCodes) })}
            />
            {status.data.required ? null : (
              <>
                <Divider label="Turn two-step sign-in off" labelPosition="left" />
                {remove.isError ? <Alert color="red">{errorText(remove.error, "Could not turn it off.")}</Alert> : null}
                <CodeForm submitLabel="Turn off" color="red" pending={remove.isPending} onSubmit={(code) => remove.mutate({ code })} />
              </>
            )}
          </Stack>
        ) : null}
        {/* Issue 30: this is the person's own account page, so the digest opt-out lives here. */}
        <Divider label="E-mail" labelPosition="left" />
        <DigestSwitch />
        {user && (status.data?.totp || !status.data?.required) ? (
          <Anchor component={Link} to={homePath(user)} size="sm">
            Back to Tally
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
