/**
 * Full-page navigation, used when the session ends outside React (in the API client).
 * An object so tests can replace `assign`.
 */
export const hardNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
