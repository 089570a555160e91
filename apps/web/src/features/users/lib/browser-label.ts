function browserName(ua: string): string {
  if (/\bEdg(?:e|A|iOS)?\//.test(ua)) return "Edge";
  if (/\bOPR\/|\bOpera\b/.test(ua)) return "Opera";
  if (/\bFirefox\/|\bFxiOS\//.test(ua)) return "Firefox";
  if (/\bChrome\/|\bCriOS\/|\bChromium\//.test(ua)) return "Chrome";
  if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) return "Safari";
  return "Other";
}

function osName(ua: string): string | null {
  if (/\bWindows\b/.test(ua)) return "Windows";
  if (/\biPhone\b|\biPad\b|\biPod\b/.test(ua)) return "iOS";
  if (/\bAndroid\b/.test(ua)) return "Android";
  if (/\bCrOS\b/.test(ua)) return "ChromeOS";
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return "macOS";
  if (/\bLinux\b/.test(ua)) return "Linux";
  return null;
}

/** "Chrome on Windows", "Safari on iOS", "Other"...; a missing user agent is "Unknown". */
export function browserLabel(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return "Unknown";
  const os = osName(ua);
  return os ? `${browserName(ua)} on ${os}` : browserName(ua);
}
