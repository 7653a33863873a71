import { describe, expect, it } from "vitest";
import { AppError, asAppError } from "./errors";
import { Prisma } from "./generated/prisma/client";

describe("asAppError", () => {
  it("keeps an AppError as it is", () => {
    const err = new AppError("conflict", "busy");
    expect(asAppError(err)).toBe(err);
  });

  // Guards the ORM: asAppError tells its error by name and code, without importing it.
  it("answers the ORM's own record-not-found error as not_found", () => {
    const gone = new Prisma.PrismaClientKnownRequestError("No record was found for an update.", { code: "P2025", clientVersion: Prisma.prismaVersion.client });
    expect(asAppError(gone)).toMatchObject({ code: "not_found", status: 404, message: expect.stringContaining("removed while this request") });
  });

  it("answers a write under a row that is gone (a foreign key violated) as not_found", () => {
    const orphan = new Prisma.PrismaClientKnownRequestError("Foreign key constraint violated", { code: "P2003", clientVersion: Prisma.prismaVersion.client });
    expect(asAppError(orphan)).toMatchObject({ code: "not_found", status: 404, message: expect.stringContaining("what it belongs to was removed") });
  });

  it("leaves every other failure to internal_error", () => {
    const unique = new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: Prisma.prismaVersion.client });
    expect(asAppError(unique)).toBeUndefined();
    expect(asAppError(new Error("boom"))).toBeUndefined();
    expect(asAppError(null)).toBeUndefined();
    expect(asAppError({ name: "PrismaClientKnownRequestError" })).toBeUndefined();
  });
});
