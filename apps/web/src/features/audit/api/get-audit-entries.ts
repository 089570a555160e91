import { AUDIT_LIMITS, type AuditFilter, type AuditListQuery, type AuditListResponse } from "@tally/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

/** The page's filter fields: empty text means "any". Dates are YYYY-MM-DD, both ends included. */
export interface AuditFilterFields {
  actorId: string;
  action: string;
  entity: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilterFields = { actorId: "", action: "", entity: "", from: "", to: "" };

/** The fields as the API's query (empty ones left out). */
export function auditFilter(fields: AuditFilterFields): AuditFilter {
  return {
    actorId: fields.actorId ? Number(fields.actorId) : undefined,
    action: fields.action || undefined,
    entity: fields.entity || undefined,
    from: fields.from || undefined,
    to: fields.to || undefined,
  };
}

export function getAuditEntries(fields: AuditFilterFields, page: number, signal?: AbortSignal): Promise<AuditListResponse> {
  const limit = AUDIT_LIMITS.pageSize;
  const query: AuditListQuery = { ...auditFilter(fields), limit, offset: (page - 1) * limit };
  return apiRequest<AuditListResponse>("/audit", { query, signal });
}

export function auditEntriesQuery(fields: AuditFilterFields, page: number) {
  return queryOptions({
    queryKey: queryKeys.audit.page(fields, page),
    queryFn: ({ signal }) => getAuditEntries(fields, page, signal),
    placeholderData: keepPreviousData,
    // The log grows with every admin action: always read it afresh.
    staleTime: 0,
  });
}

export function useAuditEntries(fields: AuditFilterFields, page: number, enabled = true) {
  return useQuery({ ...auditEntriesQuery(fields, page), enabled });
}
