import { Alert, Button, Paper, Stack, Title } from "@mantine/core";
import { SSO_REFUSALS, type SsoRefusal, ssoRefusalText } from "@tally/contract";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { PageLoader } from "../../../components/page-loader";
import { ApiError } from "../../../lib/api-error";
import { postLoginPath } from "../../../lib/route-access";
import { useAuthProviders } from "../api/get-auth-providers";
import { useExchangeSsoCode } from "../api/exchange-sso-code";
import { SecondFactorStep } from "./second-factor-step";

/** What the server's callback put in the fragment: a one-time code, or a refusal. */
type Outcome = { code: string } | { refusal: SsoRefusal; providerId: string | null; email: string | null };

export function readSsoFragment(hash: string): Outcome {
  const f = new URLSearchParams(hash.replace(/^#/, ""));
  const code = f.get("code");
  if (code) return { code };
  const error = f.get("error");
  const refusal = SSO_REFUSALS.find((r) => r === error) ?? "SIGN_IN_FAILED";
  return { refusal, providerId: f.get("provider"), email: f.get("email") };
}

/**
 * /sso, where a single sign-on ends: the one-time code is read once, taken out of the address
 * bar and exchanged for the session (or for the code step of two-step sign-in); a refusal is
 * explained.
 */
export function SsoPage() {
  const navigate = useNavigate();
  const [outcome] = useState(() => readSsoFragment(window.location.hash));
  const providers = useAuthProviders();
  const exchange = useExchangeSsoCode();
  const started = useRef(false);

  useEffect(() => {
    window.history.replaceState(window.history.state, "", window.location.pathname);
    // The code is single use: exchanged once, even when effects run twice.
    if (!("code" in outcome) || started.current) return;
    started.current = true;
    exchange.mutate(outcome.code, {
      onSuccess: (reply) => {
        if (!("mfaRequired" in reply)) void navigate(postLoginPath(reply.user, null), { replace: true });
      },
    });
  }, [outcome, exchange, navigate]);

  let body;
  if (exchange.data && "mfaRequired" in exchange.data) {
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
        ? ssoRefusalText(outcome.refusal, providerName, outcome.email)
        : exchange.error instanceof ApiError && exchange.error.fromServer
          ? exchange.error.message
          : ssoRefusalText("SIGN_IN_FAILED", "single sign-on", null);
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
