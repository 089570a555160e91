import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { LIMITS, MESSAGES, passwordStrength } from "@tally/contract";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { PageLoader } from "../../../components/page-loader";
import { useLinkToken } from "../lib/link-token";
import { errorText } from "../../../lib/api-error";
import { useSetPassword } from "../api/set-password";
import { useVerifyResetToken } from "../api/verify-reset-token";
import { PasswordStrengthMeter } from "./password-strength-meter";
import { bindText } from "../../../lib/text-binding";

function Card({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          Set New Password
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function BackToLogin() {
  return (
    <Anchor component={Link} to="/login" size="sm">
      Back to Login
    </Anchor>
  );
}

/** /set-password#token=… (or ?token=…): verifying → invalid link or form → success → /login after 3 s. */
export function SetPasswordPage() {
  const token = useLinkToken();
  const verification = useVerifyResetToken(token);

  if (!token) {
    return <LinkProblem message={MESSAGES.resetNoToken} />;
  }
  if (verification.isPending) {
    return (
      <Card>
        <PageLoader label="Verifying your reset link..." />
        <Text ta="center">Verifying your reset link...</Text>
      </Card>
    );
  }
  if (verification.isError || !verification.data.valid) {
    return <LinkProblem message={MESSAGES.resetInvalidLink} />;
  }
  return <SetPasswordForm token={token} />;
}

/** A link that cannot be used: the reason and the way back to sign-in. */
function LinkProblem({ message }: { message: string }) {
  return (
    <Card>
      <Alert color="red" role="alert">
        {message}
      </Alert>
      <BackToLogin />
    </Card>
  );
}

function SetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const update = useSetPassword();
  const navigate = useNavigate();

  useEffect(() => {
    if (!update.isSuccess) return;
    const timer = setTimeout(() => void navigate("/login", { replace: true }), LIMITS.resetRedirectDelayMs);
    return () => clearTimeout(timer);
  }, [update.isSuccess, navigate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: passwordStrength(password) < LIMITS.passwordStrengthPass ? MESSAGES.passwordTooWeak : undefined,
      confirm: password !== confirm ? MESSAGES.passwordsDoNotMatch : undefined,
    };
    setErrors(next);
    if (next.password || next.confirm) return;
    update.mutate({ token, password });
  };

  if (update.isSuccess) {
    return (
      <Card>
        <Alert color="green" role="status">
          {MESSAGES.resetSuccess}
        </Alert>
      </Card>
    );
  }

  return (
    <Card>
      {update.isError ? (
        <Alert color="red" role="alert">
          {errorText(update.error, MESSAGES.resetFailed)}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              {...bindText(password, setPassword)}
              error={errors.password}
            />
            <Stack mt="xs" gap={0}>
              <PasswordStrengthMeter password={password} />
              <Text size="xs" c="dimmed">
                Use at least 8 characters with upper and lower case letters, a digit and a symbol.
              </Text>
            </Stack>
          </div>
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            {...bindText(confirm, setConfirm)}
            error={errors.confirm}
          />
          <Button type="submit" fullWidth loading={update.isPending}>
            Update Password
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </Card>
  );
}
