import { Button, Group, TextInput } from "@mantine/core";
import { MESSAGES } from "@tally/contract";
import { type FormEvent, useState } from "react";
import { bindText } from "../../../lib/text-binding";

interface Props {
  submitLabel: string;
  pending: boolean;
  onSubmit: (code: string) => void;
  color?: string;
}

/** One field for the authenticator's 6-digit code, checked before it is sent. */
export function CodeForm({ submitLabel, pending, onSubmit, color }: Props) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, "");
    const problem = /^\d{6}$/.test(typed) ? undefined : MESSAGES.mfaEnterCode;
    setError(problem);
    if (!problem) onSubmit(typed);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end">
        <TextInput
          label={MESSAGES.mfaEnterCode}
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maw={200}
          {...bindText(code, setCode)}
          error={error}
        />
        <Button type="submit" loading={pending} color={color}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
