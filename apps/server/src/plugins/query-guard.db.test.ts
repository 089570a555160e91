import { beforeAll, describe, expect, it } from "vitest";
import { buildSchool, buildStudent } from "../../test/factories.js";
import { caller, useSignedIn, useTestApp } from "../../test/test-app.js";

const t = useTestApp();
const call = caller(t);
const admin = useSignedIn(t, { role: "admin" });
let schoolId = 0;
let studentId = 0;

beforeAll(async () => {
  const [school, other] = [await buildSchool(t.db), await buildSchool(t.db)];
  schoolId = school.id;
  studentId = (await buildStudent(t.db, { schoolId: school.id })).id;
  await buildStudent(t.db, { schoolId: other.id });
});

type ErrorReply = { error: string; code: string; details?: Array<{ path: string; message: string }> };

describe("unknown query parameters", () => {
  it("refuses GET /api/students?schoolId= (the spec says school_id) naming it and the accepted ones, instead of every student", async () => {
    const res = await call("GET", `/api/students?schoolId=${schoolId}`, admin.headers);
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorReply>();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.error).toBe(
      'Unknown query parameter "schoolId". This call takes: school_id, schoolIds, respectVisibility, cohortId, teamId, q, page, limit.',
    );
    expect(body.details).toEqual([{ path: "querystring.schoolId", message: "Unknown query parameter" }]);
  });

  it("keeps the spec's names as they are: school_id narrows to that school", async () => {
    const res = await call("GET", `/api/students?school_id=${schoolId}&page=1`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Array<{ id: number }> }>().data.map((s) => s.id)).toEqual([studentId]);
  });

  it("names every unknown parameter, and refuses any on a route that takes none", async () => {
    const several = await call("GET", "/api/reports/data?school_id=1&simplified=false&team=2", admin.headers);
    expect(several.statusCode).toBe(400);
    expect(several.json<ErrorReply>().error).toBe(
      'Unknown query parameters "school_id", "team". This call takes: schoolId, cohortId, teamId, q, simplified.',
    );
    const none = await call("GET", `/api/schools?school_id=${schoolId}`, admin.headers);
    expect(none.statusCode).toBe(400);
    expect(none.json<ErrorReply>().error).toBe('Unknown query parameter "school_id". This call takes no query parameters.');
    const post = await call("POST", "/api/auth/logout?everywhere=true", {}, {});
    expect(post.statusCode).toBe(400);
  });

  it("repeats at most 60 characters of a name back", async () => {
    const res = await call("GET", `/api/schools?${"x".repeat(500)}=1`, admin.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorReply>().error).toBe(`Unknown query parameter "${"x".repeat(60)}…". This call takes no query parameters.`);
  });

  it("asks for credentials first on a guarded route", async () => {
    const res = await call("GET", "/api/students?schoolId=1");
    expect(res.statusCode).toBe(401);
  });

  it("leaves the document, its reference page and paths outside the API alone", async () => {
    expect((await call("GET", "/api/openapi.json?v=2")).statusCode).toBe(200);
    expect((await call("GET", "/api/docs/static/swagger-ui-bundle.js?v=2")).statusCode).toBe(200);
    // Not found either way: no route, so nothing to check the query against.
    expect((await call("GET", "/assets/app.js?v=2")).statusCode).toBe(404);
  });
});
