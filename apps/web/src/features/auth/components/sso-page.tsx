import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { SSO_REFUSALS, type SsoRefusal, ssoRefusalText } from "@tally/contract";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { PageLoader } from "../../../components/page-loader";
import { ApiError } from "../../../lib/api-error";
import { authStore } from "../../../lib/auth-store";
import { logout } from "../../../lib/logout";
import { postLoginPath } from "../../../lib/route-access";
import { useAuthProviders } from "../api/get-auth-providers";
import { useExchangeSsoCode } from "../api/exchange-sso-code";
import { SecondFactorStep } from "./second-factor-step";

/**
 * What the server's callback put in the fragment: a one-time code, or a refusal. Anyone can
 * write a fragment into a link, so a refusal is only ever one of the known codes (shown as its
 * fixed text) and the provider only an id looked up among the configured ones; nothing else
 * of it is read, let alone shown.
 */
type Outcome = { code: string } | { refusal: SsoRefusal; providerId: string | null };

export function readSsoFragment(hash: string): Outcome {
  const f = new URLSearchParams(hash.replace(/^#/, ""));
  const code = f.get("code");
  if (code) return { code };
  const error = f.get("error");
  const refusal = SSO_REFUSALS.find((r) => r === error) ?? "SIGN_IN_FAILED";
  return { refusal, providerId: f.get("provider") };
}

/**
 * /sso, where a single sign-on ends: the one-time code is read once, taken out of the address
 * bar and exchanged for the session (or for the code step of two-step sign-in); a refusal is
 * explained. A browser that is signed in already is asked first: a link opened from elsewhere
 * must never switch it to another account unnoticed.
 */
export function SsoPage() {
  const navigate = useNavigate();
  const [outcome] = useState(() => readSsoFragment(window.location.hash));
  // Read once, as the page opens: whoever was signed in before this sign-on.
  const [signedInAs] = useState(() => (authStore.get().token ? authStore.get().user : null));
  const [switchConfirmed, setSwitchConfirmed] = useState(false);
  const providers = useAuthProviders();
  const exchange = useExchangeSsoCode();
  const started = useRef(false);
  const mustAsk = "code" in outcome && signedInAs !== null && !switchConfirmed;

  useEffect(() => {
    window.history.replaceState(window.history.state, "", window.location.pathname);
    // The code is single use: exchanged once, even when effects run twice.
    if (!("code" in outcome) || mustAsk || started.current) return;
    started.current = true;
    const run = async () => {
      // The session being replaced is ended, not left behind.
      if (signedInAs) await logout();
      exchange.mutate(outcome.code, {
        onSuccess: (reply) => {
          if (!("mfaRequired" in reply)) void navigate(postLoginPath(reply.user, null), { replace: true });
        },
      });
    };
    void run();
  }, [outcome, mustAsk, signedInAs, exchange, navigate]);

  let body;
  if (mustAsk) {
    body = (
      <>
        <Alert color="yellow" data-testid="sso-switch-question">
          <Text size="sm">
            You are signed in as <strong>{signedInAs.username}</strong>. Continuing signs you in with the account this single sign-on
            belongs to instead. Only continue if you started this sign-in yourself.
          </Text>
        </Alert>
        <Group>
          <Button onClick={() => setSwitchConfirmed(true)}>Switch account</Button>
          <Button variant="default" onClick={() => void navigate(postLoginPath(signedInAs, null), { replace: true })}>
            Stay signed in as {signedInAs.username}
          </Button>
        </Group>
      </>
    );
  } else if (exchange.data && "mfaRequired" in exchange.data) {
    // The provider's sign-in was one factor and the account has two-step sign-in: its code, as after a password.
    body = (
      <SecondFactorStep
        challenge={exchange.data.challenge}
        methods={exchange.data.methods}
        onSignedIn={(reply) => void navigate(postLoginPath(reply.user, null), { replace: true })}
        onRestart={() => void navigate("/login", { replace: true })}
      />
    );
  } else if ("code" in outcome && !exchange.isError) {
    body = <PageLoader label="Signing you in..." />;
  } else {
    const providerName =
      "providerId" in outcome ? (providers.data?.find((p) => p.id === outcome.providerId)?.name ?? "your provider") : "your provider";
    const text =
      "refusal" in outcome
        ? ssoRefusalText(outcome.refusal, providerName)
        : exchange.error instanceof ApiError && exchange.error.fromServer
          ? exchange.error.message
          : ssoRefusalText("SIGN_IN_FAILED", "single sign-on");
    body = (
      <>
        <Alert color="red" role="alert" data-testid="sso-refusal">
          {text}
        </Alert>
        <Button component={Link} to="/login">
          Return to Login
        </Button>
      </>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          Single sign-on
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
