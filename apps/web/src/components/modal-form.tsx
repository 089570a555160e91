import { Stack } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { ModalShell } from "./modal-shell";

interface Props {
  /** Names both the dialog and its form. */
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}

/** A dialog that is one form: fields stacked, the browser's own validation left to the form's code. */
export function ModalForm({ title, onClose, onSubmit, children }: Props) {
  return (
    <ModalShell title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="sm">{children}</Stack>
      </form>
    </ModalShell>
  );
}
