import { Alert, Button, Code, Image, List, Stack, Text } from "@mantine/core";
import { ApiError, errorText } from "../../../lib/api-error";
import { useConfirmTotp } from "../api/confirm-totp";
import { useEnrollTotp } from "../api/enroll-totp";
import { CodeForm } from "./code-form";
import { ReauthForm } from "./reauth-form";

/** The server wants the password (or a current code) again before a second factor is added. */
export const needsReauth = (error: unknown) => error instanceof ApiError && error.code === "REAUTH_REQUIRED";

/**
 * Setting up an authenticator app: a key (QR code and text), then a code from the app to confirm
 * it. The recovery codes of the confirmation go to `onConfirmed`: the page shows them, since this
 * part goes away once two-step sign-in is on.
 */
export function TotpEnrolment({ onConfirmed }: { onConfirmed: (recoveryCodes: string[]) => void }) {
  const enroll = useEnrollTotp();
  const confirm = useConfirmTotp();

  if (!enroll.data && needsReauth(enroll.error)) {
    return <ReauthForm codeAllowed={false} onConfirmed={() => enroll.mutate()} onCancel={() => enroll.reset()} />;
  }
  if (!enroll.data) {
    return (
      <Stack gap="sm">
        {enroll.isError ? <Alert color="red">{errorText(enroll.error, "Could not start the set-up. Please try again.")}</Alert> : null}
        <Button onClick={() => enroll.mutate()} loading={enroll.isPending} w="fit-content">
          Set up an authenticator app
        </Button>
      </Stack>
    );
  }
  const { qrSvg, secret } = enroll.data;
  return (
    <Stack gap="sm" data-testid="totp-enrolment">
      <List type="ordered" spacing="xs" size="sm">
        <List.Item>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password…).</List.Item>
        <List.Item>Scan this QR code, or type the key below into the app.</List.Item>
        <List.Item>Enter the 6-digit code the app then shows.</List.Item>
      </List>
      <Image src={`data:image/svg+xml;utf8,${encodeURIComponent(qrSvg)}`} alt="QR code to scan with your authenticator app" w={200} h={200} />
      <Text size="sm">
        Key: <Code data-testid="totp-secret">{secret.replace(/(.{4})/g, "$1 ").trim()}</Code>
      </Text>
      {confirm.isError ? (
        <Alert color="red" role="alert">
          {errorText(confirm.error, "Could not confirm the code. Please try again.")}
        </Alert>
      ) : null}
      <CodeForm
        submitLabel="Turn on"
        pending={confirm.isPending}
        onSubmit={(code) => confirm.mutate({ code }, { onSuccess: (reply) => onConfirmed(reply.recoveryCodes) })}
      />
    </Stack>
  );
}
