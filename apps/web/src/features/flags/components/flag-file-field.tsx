import { Box, Input, Text } from "@mantine/core";
import { type DragEvent, useId, useState } from "react";
import classes from "./flag-file-field.module.css";

interface Props {
  label: string;
  file: File | null;
  error?: string;
  disabled?: boolean;
  /** Gets every file chosen or dropped; the panel decides whether it is a CSV. */
  onFile: (file: File) => void;
}

/**
 * One report: an area that takes a dropped file around a real file input, so the keyboard and
 * screen readers reach it like any other field.
 */
export function FlagFileField({ label, file, error, disabled, onFile }: Props) {
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
  const border = error ? "var(--mantine-color-error)" : over ? "var(--mantine-color-blue-6)" : "var(--mantine-color-gray-5)";
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
      style={{
        border: `2px dashed ${border}`,
        borderRadius: "var(--mantine-radius-md)",
        background: over ? "var(--mantine-color-blue-0)" : undefined,
        flex: "1 1 240px",
      }}
    >
      {/* No asterisk: all three are required, and it wrapped onto a line of its own. */}
      <Input.Label htmlFor={id}>{label}</Input.Label>
      <Input.Description id={hintId} mb={6}>
        Required. Drop a CSV file here or choose one.
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
        {file ? file.name : "No file chosen"}
      </Text>
      {error ? (
        <Input.Error id={errorId} mt={4}>
          {error}
        </Input.Error>
      ) : null}
    </Box>
  );
}
