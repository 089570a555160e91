import { Alert, Button, Paper, Stack, Title } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { Link } from "react-router";
import { PageLoader } from "../../../components/page-loader";
import { useLinkToken } from "../lib/link-token";
import { useVerifyEmail } from "../api/verify-email";

/** /verify#token=… (or ?token=…): loading → success or error. */
export function VerifyEmailPage() {
  const token = useLinkToken();
  const verification = useVerifyEmail(token);

  let body;
  if (!token || verification.isError) {
    body = (
      <>
        <Alert color="red" role="alert">
          {token ? MESSAGES.verifyFailed : MESSAGES.verifyNoToken}
        </Alert>
        <Button component={Link} to="/login">
          Return to Login
        </Button>
      </>
    );
  } else if (verification.isPending) {
    body = <PageLoader label="Verifying your email..." />;
  } else {
    body = (
      <>
        <Alert color="green" role="status">
          {verification.data?.message || MESSAGES.verifySuccess}
        </Alert>
        <Button component={Link} to="/login">
          Proceed to Login
        </Button>
      </>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          Email Verification
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
