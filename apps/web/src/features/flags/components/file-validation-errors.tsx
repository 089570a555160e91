import { FLAG_UPLOAD_MESSAGES } from "@tally/contract";
import { Alert, Button, Text } from "@mantine/core";
import { useState } from "react";

/** Errors shown before "Show all": enough to see what is wrong, short enough to reach the table. */
const FIRST_ERRORS = 10;

interface Props {
  /** The server's validationErrors, one sentence per row error. */
  errors: string[];
  /** Every row error, listed or not. */
  count: number;
}

/**
 * The row errors of a processed run, above the rows to verify: a bad row is that row's error,
 * the other rows were processed and can be imported (spec: shown as "File Validation Errors: …").
 */
export function FileValidationErrors({ errors, count }: Props) {
  const [all, setAll] = useState(false);
  if (errors.length === 0) return null;
  const shown = all ? errors : errors.slice(0, FIRST_ERRORS);
  return (
    <Alert color="yellow" role="alert" title="Some rows have errors">
      <Text size="sm">The other rows were processed: verify them below. Correct these rows in the files and process them again to include them.</Text>
      <Text size="sm" mt="xs">
        {FLAG_UPLOAD_MESSAGES.validationPrefix}
        {shown.join("; ")}
        {shown.length < errors.length ? "; …" : ""}
      </Text>
      {count > errors.length ? (
        <Text size="sm" mt="xs">
          {count.toLocaleString("en-US")} row errors in all; the first {errors.length.toLocaleString("en-US")} are listed.
        </Text>
      ) : null}
      {errors.length > FIRST_ERRORS ? (
        <Button size="xs" variant="subtle" mt="xs" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${errors.length.toLocaleString("en-US")} listed`}
        </Button>
      ) : null}
    </Alert>
  );
}
