import { Box, Input, Text } from "@mantine/core";
import { type DragEvent, useId, useRef, useState } from "react";
import classes from "./file-drop-field.module.css";
import { fileSizeText } from "./import-form-values";

interface Props {
  label: string;
  file: File | null;
  error?: string;
  onChange: (file: File | null) => void;
}

/**
 * One report: a labelled area that takes a dropped file, around a real file input (so the
 * keyboard and screen readers reach it as any other field), showing the chosen name and size.
 */
export function FileDropField({ label, file, error, onChange }: Props) {
  const id = useId();
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (!dropped) return;
    // The input shows the dropped file too, rather than "No file chosen" beside its name.
    if (input.current) input.current.files = event.dataTransfer.files;
    onChange(dropped);
  };

  const borderColor = error ? "var(--mantine-color-error)" : over ? "var(--mantine-color-blue-6)" : "var(--mantine-color-gray-4)";
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
        border: `2px dashed ${borderColor}`,
        borderRadius: "var(--mantine-radius-md)",
        background: over ? "var(--mantine-color-blue-0)" : undefined,
      }}
    >
      <Input.Label htmlFor={id} required>
        {label}
      </Input.Label>
      <Input.Description id={hintId} mb={6}>
        Drop a CSV file here or choose one (at most 10 MB).
      </Input.Description>
      <input
        ref={input}
        id={id}
        type="file"
        accept=".csv,text/csv"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => onChange(event.currentTarget.files?.[0] ?? null)}
        className={classes.input}
      />
      <Text size="sm" mt={4} data-testid={file ? "chosen-file" : undefined} c={file ? undefined : "dimmed"}>
        {file ? `${file.name} (${fileSizeText(file.size)})` : "No file chosen"}
      </Text>
      {error ? (
        <Input.Error id={errorId} mt={4}>
          {error}
        </Input.Error>
      ) : null}
    </Box>
  );
}
