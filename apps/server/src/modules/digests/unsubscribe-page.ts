import { escapeHtml } from "./digest-content.js";
import { UNSUBSCRIBE_LINK_DAYS } from "./unsubscribe-token.js";

// The pages of the unsubscribe link. A GET never unsubscribes (mail scanners open links):
// it shows a button that POSTs, as a one-click mail client does (RFC 8058). Plain HTML with
// no script or style, so the API's strict content security policy leaves it working.

export type UnsubscribePageKind = "confirm" | "already" | "done" | "invalid" | "expired";

/** The web app's own account page (its TWO_STEP_PATH), where the "Weekly digest e-mails" switch is. */
const ACCOUNT_PAGE_PATH = "/account/two-step";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

export function unsubscribePage(kind: UnsubscribePageKind, link: { token?: string; appUrl?: string } = {}): string {
  switch (kind) {
    case "confirm":
      return page(
        "Unsubscribe from the weekly digest?",
        `<p>You will no longer get Tally's weekly digest e-mail. You can turn it back on from your profile.</p>` +
          `<form method="post" action="?token=${escapeHtml(encodeURIComponent(link.token ?? ""))}"><button type="submit">Unsubscribe</button></form>`,
      );
    case "already":
      return page("You are not subscribed", "<p>The weekly digest is already off for you. You can turn it back on from your profile.</p>");
    case "done":
      return page("Unsubscribed", "<p>You will no longer get the weekly digest. You can turn it back on from your profile.</p>");
    case "invalid":
      return page("This link does not work", "<p>This is not a valid unsubscribe link. Turn the digest off from your profile instead.</p>");
    case "expired":
      return page(
        "This link has expired",
        `<p>Unsubscribe links work for ${UNSUBSCRIBE_LINK_DAYS} days after the digest was sent, and this one is older.</p>` +
          `<p>To stop the weekly digest, sign in to Tally, open your account page ` +
          `(<a href="${escapeHtml(`${link.appUrl ?? ""}${ACCOUNT_PAGE_PATH}`)}">${escapeHtml(`${link.appUrl ?? ""}${ACCOUNT_PAGE_PATH}`)}</a>) ` +
          `and turn "Weekly digest e-mails" off. The unsubscribe link in a newer digest works too.</p>`,
      );
  }
}
