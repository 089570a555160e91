import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { MESSAGES, type MfaMethod } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { homePath, postLoginPath } from "../../../lib/route-access";
import { ApiError } from "../../../lib/api-error";
import { useAuth } from "../../../lib/auth-store";
import { readSessionMessage } from "../../../lib/session-message";
import { useLogin } from "../api/login";
import { ForgotPasswordModal } from "./forgot-password-modal";
import { SecondFactorStep } from "./second-factor-step";
import { SsoButtons } from "./sso-buttons";
import { bindText } from "../../../lib/text-binding";

function loginErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) {
    return error.fromServer ? error.message : MESSAGES.loginFailed;
  }
  return MESSAGES.loginFailedRetry;
}

interface Props {
  /** Someone has started signing in: the app may fetch what comes after (called more than once). */
  onSignInIntent?: () => void;
}

export function LoginPage({ onSignInIntent }: Props = {}) {
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ login?: string; password?: string }>({});
  const [forgotOpen, setForgotOpen] = useState(false);
  /** Set when the password was right for an account with two-step sign-in: the code step shows. */
  const [challenge, setChallenge] = useState<{ challenge: string; methods: MfaMethod[] } | null>(null);
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const signIn = useLogin();
  const from = (location.state as { from?: string } | null)?.from ?? null;
  const sessionExpired = searchParams.get("session") === "expired";
  const [sessionMessage] = useState(() => (sessionExpired ? readSessionMessage() : null));

  if (auth.token && auth.user && !signIn.isPending && !signIn.isSuccess && !challenge) {
    return <Navigate to={homePath(auth.user)} replace />;
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      login: login.trim() ? undefined : "Please enter your username or email",
      password: password ? undefined : "Please enter your password",
    };
    setFieldErrors(errors);
    if (errors.login || errors.password) return;
    signIn.mutate(
      { login: login.trim(), password },
      {
        onSuccess: (reply) => {
          if ("mfaRequired" in reply) setChallenge({ challenge: reply.challenge, methods: reply.methods });
          else void navigate(postLoginPath(reply.user, from), { replace: true });
        },
      },
    );
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <div>
          <Title order={1} fz="h2">
            Sign in to Tally
          </Title>
          <Text size="sm" c="dimmed">
            Attendance reporting for mentor and advisor meetings
          </Text>
        </div>
        {sessionMessage ? (
          <Alert color="yellow" role="status" data-testid="session-expired-notice">
            {sessionMessage}
          </Alert>
        ) : null}
        {challenge ? (
          <SecondFactorStep
            challenge={challenge.challenge}
            methods={challenge.methods}
            onSignedIn={(reply) => void navigate(postLoginPath(reply.user, from), { replace: true })}
            onRestart={() => {
              setChallenge(null);
              setPassword("");
              signIn.reset();
            }}
          />
        ) : (
          <>
            {signIn.isError ? (
              <Alert color="red" role="alert" data-testid="login-error">
                {loginErrorText(signIn.error)}
              </Alert>
            ) : null}
            <form onSubmit={submit} noValidate onFocus={onSignInIntent} onInput={onSignInIntent}>
              <Stack gap="md">
                <TextInput
                  label="Username or Email"
                  name="login"
                  autoComplete="username"
                  {...bindText(login, setLogin)}
                  error={fieldErrors.login}
                />
                <PasswordInput
                  label="Password"
                  name="password"
                  autoComplete="current-password"
                  {...bindText(password, setPassword)}
                  error={fieldErrors.password}
                />
                <Button type="submit" fullWidth loading={signIn.isPending}>
                  Sign In
                </Button>
              </Stack>
            </form>
            <SsoButtons />
            <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
              Forgot your password?
            </Anchor>
          </>
        )}
      </Stack>
      <ForgotPasswordModal opened={forgotOpen} onClose={() => setForgotOpen(false)} />
    </Paper>
  );
}
