import { Alert, Button, Paper, Stack, Title } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { Link, useSearchParams } from "react-router";
import { PageLoader } from "../../../components/page-loader";
import { useVerifyEmail } from "../api/verify-email";

/** /verify?token=…: loading → success or error. */
export function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
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
