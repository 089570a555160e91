import { describe, expect, it } from "vitest";
import { browserLabel } from "./browser-label";

const UA = {
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68",
  operaMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
};

describe("browserLabel", () => {
  it("names the browser and the operating system", () => {
    expect(browserLabel(UA.chromeWindows)).toBe("Chrome on Windows");
    expect(browserLabel(UA.edgeWindows)).toBe("Edge on Windows");
    expect(browserLabel(UA.operaMac)).toBe("Opera on macOS");
    expect(browserLabel(UA.firefoxLinux)).toBe("Firefox on Linux");
    expect(browserLabel(UA.safariIphone)).toBe("Safari on iOS");
    expect(browserLabel(UA.safariMac)).toBe("Safari on macOS");
    expect(browserLabel(UA.chromeAndroid)).toBe("Chrome on Android");
  });

  it("falls back to Other and Unknown", () => {
    expect(browserLabel("curl/8.5.0")).toBe("Other");
    expect(browserLabel(null)).toBe("Unknown");
    expect(browserLabel("  ")).toBe("Unknown");
  });
});
