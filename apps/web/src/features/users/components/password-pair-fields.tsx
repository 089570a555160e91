import { PasswordInput } from "@mantine/core";

interface Props {
  /** The labels of the password and of its confirmation. */
  labels: readonly [string, string];
  password: string;
  confirmPassword: string;
  onPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
  errors: { password?: string; confirmPassword?: string };
  /** The dialog opens with the cursor in the password. */
  focusPassword?: boolean;
}

/** A new password and its confirmation, as the Create User and Reset Password dialogs ask for them. */
export function PasswordPairFields({ labels, password, confirmPassword, onPassword, onConfirmPassword, errors, focusPassword }: Props) {
  return (
    <>
      <PasswordInput
        label={labels[0]}
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={errors.password}
        autoComplete="new-password"
        required
        data-autofocus={focusPassword}
      />
      <PasswordInput
        label={labels[1]}
        value={confirmPassword}
        onChange={(e) => onConfirmPassword(e.currentTarget.value)}
        error={errors.confirmPassword}
        autoComplete="new-password"
        required
      />
    </>
  );
}
