import { Button, Divider, Stack } from "@mantine/core";
import { API_BASE } from "../../../lib/health";
import { useAuthProviders } from "../api/get-auth-providers";

/** "Sign in with {name}" for each configured provider: a plain link, since the provider's page is a navigation. */
export function SsoButtons() {
  const providers = useAuthProviders();
  // An older server without the route answers something else: no buttons then.
  const list = Array.isArray(providers.data) ? providers.data : [];
  if (list.length === 0) return null;
  return (
    <Stack gap="sm">
      <Divider label="or" labelPosition="center" />
      {list.map((p) => (
        <Button key={p.id} component="a" href={`${API_BASE}/auth/oidc/${encodeURIComponent(p.id)}/start`} variant="default" fullWidth>
          Sign in with {p.name}
        </Button>
      ))}
    </Stack>
  );
}
