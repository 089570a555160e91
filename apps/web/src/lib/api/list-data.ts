import { ApiError } from "../api-error";

/**
 * The `data` list of a list reply (spec: list responses are read from a data property). The
 * contract types the reply; a reply without the list is still refused rather than shown as
 * empty (spec: entries that are not well-formed lists are rejected).
 */
export function listData<T>(reply: { data: T[] }): T[] {
  if (!Array.isArray(reply?.data)) throw new ApiError(0, "INVALID_RESPONSE", "Received invalid data format from server");
  return reply.data;
}
