import { escapeHtml } from "./digest-content.js";

// The pages of the unsubscribe link. A GET never unsubscribes (mail scanners open links):
// it shows a button that POSTs, as a one-click mail client does (RFC 8058). Plain HTML with
// no script or style, so the API's strict content security policy leaves it working.

export type UnsubscribePageKind = "confirm" | "already" | "done" | "invalid";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

export function unsubscribePage(kind: UnsubscribePageKind, token?: string): string {
  switch (kind) {
    case "confirm":
      return page(
        "Unsubscribe from the weekly digest?",
        `<p>You will no longer get Tally's weekly digest e-mail. You can turn it back on from your profile.</p>` +
          `<form method="post" action="?token=${escapeHtml(encodeURIComponent(token ?? ""))}"><button type="submit">Unsubscribe</button></form>`,
      );
    case "already":
      return page("You are not subscribed", "<p>The weekly digest is already off for you. You can turn it back on from your profile.</p>");
    case "done":
      return page("Unsubscribed", "<p>You will no longer get the weekly digest. You can turn it back on from your profile.</p>");
    case "invalid":
      return page("This link does not work", "<p>This is not a valid unsubscribe link. Turn the digest off from your profile instead.</p>");
  }
}
