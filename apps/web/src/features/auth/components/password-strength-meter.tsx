import { Progress, Text } from "@mantine/core";
import { passwordStrength, strengthColor } from "@tally/contract";

const LABELS = { red: "Weak", yellow: "Medium", green: "Strong" } as const;

/** Bar coloured red (score ≤ 2), yellow (3) or green (above), with the level in words too. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const score = passwordStrength(password);
  const color = strengthColor(score);
  const label = LABELS[color];
  return (
    <div data-testid="password-strength" data-strength-color={color} data-strength-score={score}>
      <Progress.Root size="sm" aria-hidden="true">
        <Progress.Section value={(score / 5) * 100} color={color} withAria={false} />
      </Progress.Root>
      <Text size="sm" mt={4}>
        Password strength: {label} ({score}/5)
      </Text>
    </div>
  );
}
