import { Box, Input, Text } from "@mantine/core";
import { type DragEvent, useId, useState } from "react";
import classes from "./file-drop-field.module.css";

interface Props {
  label: string;
  /** The line under the label: that it is required, what to drop and its limits. */
  hint: string;
  file: File | null;
  error?: string | undefined;
  disabled?: boolean;
  /** What the line under the control says of the chosen file (default: its name). */
  describe?: (file: File) => string;
  /** Every file chosen or dropped; the form decides whether it is acceptable. */
  onFile: (file: File) => void;
  /** Side by side in a row: each takes an equal share, at least 240 px. */
  grow?: boolean;
}

/**
 * One report file: an area that takes a dropped file, around a real file input so the
 * keyboard and screen readers reach it like any other field. Required is said in the hint and
 * to assistive technology rather than by an asterisk, which wrapped onto a line of its own.
 */
export function FileDropField({ label, hint, file, error, disabled, describe = (f) => f.name, onFile, grow }: Props) {
  const id = useId();
  const [over, setOver] = useState(false);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };
  const border = error ? "var(--mantine-color-error)" : over ? "var(--mantine-color-blue-6)" : "var(--mantine-color-gray-4)";
  return (
    <Box
      data-testid={`drop-${label}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      p="sm"
      className={classes.area}
      style={{
        border: `2px dashed ${border}`,
        background: over ? "var(--mantine-color-blue-0)" : undefined,
        flex: grow ? "1 1 240px" : undefined,
      }}
    >
      <Input.Label htmlFor={id}>{label}</Input.Label>
      <Input.Description id={hintId} mb={6}>
        {hint}
      </Input.Description>
      <input
        id={id}
        type="file"
        accept=".csv,text/csv"
        disabled={disabled}
        aria-required="true"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        // Cleared after each choice so choosing the same file again (after a fix) still counts.
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          if (chosen) onFile(chosen);
          event.currentTarget.value = "";
        }}
        className={classes.input}
      />
      <Text size="sm" mt={4} c={file ? undefined : "dimmed"} data-testid={file ? "chosen-file" : undefined}>
        {file ? describe(file) : "No file chosen"}
      </Text>
      {error ? (
        <Input.Error id={errorId} mt={4}>
          {error}
        </Input.Error>
      ) : null}
    </Box>
  );
}
