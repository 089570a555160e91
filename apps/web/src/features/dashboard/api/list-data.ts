import { ApiError } from "../../../lib/api-client";

/** The `data` list of a list reply; a reply without one is an error, not an empty list. */
export function listData<T>(reply: unknown): T[] {
  const data = typeof reply === "object" && reply !== null ? (reply as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new ApiError(0, "INVALID_RESPONSE", "Received invalid data format from server");
  return data as T[];
}
