import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { MutationResult } from "../../../components/mutation-result";
import { errorText } from "../../../lib/api-error";
import { useForgotPassword } from "../api/forgot-password";
import { bindText } from "../../../lib/text-binding";

interface Props {
  opened: boolean;
  onClose: () => void;
}

/** Reset-request dialog opened from the sign-in page. */
export function ForgotPasswordModal({ opened, onClose }: Props) {
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const request = useForgotPassword();

  const close = () => {
    setEmail("");
    setFieldError(null);
    request.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setFieldError(MESSAGES.emailRequired);
      return;
    }
    setFieldError(null);
    request.mutate(email.trim());
  };

  return (
    <Modal.Root opened={opened} onClose={close} centered>
      <Modal.Overlay />
      <Modal.Content>
        {/* A div, not Mantine's default <header>: a second banner landmark confuses screen readers. */}
        <Modal.Header component="div">
          <Modal.Title>Reset Password</Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>
          {request.isSuccess ? (
            <Stack>
              <MutationResult mutation={request} success={MESSAGES.resetRequestSuccess} />
              <Group justify="flex-end">
                <Button onClick={close}>Back to Sign In</Button>
              </Group>
            </Stack>
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack>
                <Text size="sm">
                  Enter the email address of your account and we will send you a link to reset your
                  password.
                </Text>
                <MutationResult mutation={request} failure={(error) => errorText(error, MESSAGES.resetRequestFailed)} />
                <TextInput
                  label="Email"
                  type="email"
                  autoComplete="email"
                  {...bindText(email, setEmail)}
                  error={fieldError}
                  data-autofocus
                />
                <Group justify="flex-end">
                  <Button variant="default" onClick={close}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={request.isPending}>
                    Send Reset Link
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
