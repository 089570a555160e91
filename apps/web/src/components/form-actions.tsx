import { Button, Group } from "@mantine/core";

interface Props {
  /** The submit button's text. */
  label: string;
  onCancel: () => void;
  cancelLabel?: string;
  /** While the save runs, the submit button spins and Cancel waits. */
  pending: boolean;
  disabled?: boolean;
  /** For a form without a <form>: the button then saves by click instead of submitting. */
  onSave?: () => void;
}

/** A dialog form's closing row: Cancel (or Close), then the action, at the right. */
export function FormActions({ label, onCancel, cancelLabel = "Cancel", pending, disabled, onSave }: Props) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </Button>
      <Button type={onSave ? "button" : "submit"} onClick={onSave} loading={pending} disabled={disabled}>
        {label}
      </Button>
    </Group>
  );
}
