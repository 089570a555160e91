import { Alert } from "@mantine/core";
import type { ReactNode } from "react";

/** What MutationResult reads of a mutation (TanStack Query's useMutation result fits). */
export interface MutationOutcome {
  isSuccess: boolean;
  isError: boolean;
  error: unknown;
}

interface Props {
  mutation: MutationOutcome;
  /** Shown once the mutation succeeded, as a polite status; nothing when left out. */
  success?: ReactNode;
  /** The words for its failure, as an alert; nothing when left out. */
  failure?: (error: unknown) => ReactNode;
}

/**
 * The outcome of a dialog's mutation: success as a green status (read out politely), failure
 * as a red alert (read out at once). One place for the pair every such dialog shows.
 */
export function MutationResult({ mutation, success, failure }: Props) {
  if (mutation.isSuccess && success !== undefined) {
    return (
      <Alert color="green" role="status">
        {success}
      </Alert>
    );
  }
  if (mutation.isError && failure) {
    return (
      <Alert color="red" role="alert">
        {failure(mutation.error)}
      </Alert>
    );
  }
  return null;
}
