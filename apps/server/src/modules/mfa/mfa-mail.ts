import type { MailMessage } from "../../lib/mailer.js";

// Every change to a person's second factor is mailed to them, so a change they did not make
// (a stolen session, an administrator's reset) does not go unnoticed. No code is ever in a mail.

export type SecondFactorEvent = "enrolled" | "removed" | "reset" | "recovery_code_used" | "recovery_codes_regenerated" | "passkey_registered";

const SUBJECTS: Record<SecondFactorEvent, string> = {
  enrolled: "Two-step sign-in is now on for your Tally account",
  removed: "Two-step sign-in was turned off for your Tally account",
  reset: "An administrator reset two-step sign-in for your Tally account",
  recovery_code_used: "A recovery code was used to sign in to your Tally account",
  recovery_codes_regenerated: "New recovery codes were made for your Tally account",
  passkey_registered: "A passkey was added to your Tally account",
};

function body(event: SecondFactorEvent, detail: { codesLeft?: number; appUrl: string }): string {
  switch (event) {
    case "enrolled":
      return "Signing in now asks for a code from your authenticator app after your password. Keep your recovery codes somewhere safe.";
    case "removed":
      return "Signing in no longer asks for a code from your authenticator app.";
    case "reset":
      return "Your authenticator app and recovery codes no longer work for Tally. Set up two-step sign-in again on your profile.";
    case "recovery_code_used":
      return `Someone signed in with one of your recovery codes. ${detail.codesLeft ?? 0} unused codes are left; you can make new ones on your profile.`;
    case "recovery_codes_regenerated":
      return "Your earlier recovery codes no longer work.";
    case "passkey_registered":
      return "Signing in can now be finished with this passkey instead of a code from your authenticator app.";
  }
}

export function secondFactorMail(to: string, event: SecondFactorEvent, detail: { codesLeft?: number; appUrl: string }): MailMessage {
  return {
    to,
    subject: SUBJECTS[event],
    text: `${body(event, detail)}\n\nIf this was not you, tell your programme administrator at once.\n\n${detail.appUrl}\n`,
  };
}
