import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubProfile, profileEmail } from "./oauth-profile";

/**
 * GitHub's REST API as the sign-in reads it, on loopback: `GET /user` (the public profile, whose `email` is the public
 * address or null) and `GET /user/emails` (each address with `primary` and `verified`; 404 without the `user:email`
 * scope), both answering only to the bearer token.
 */
let emails: { email: string; primary: boolean; verified: boolean; visibility: string | null }[] | null = [];
const server = http.createServer((req, res) => {
  if (req.headers.authorization !== "Bearer gho_test_token") {
    res.writeHead(401, { "Content-Type": "application/json" });
    return res.end(JSON.stringify({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }));
  }
  res.setHeader("Content-Type", "application/json");
  if (req.url === "/user") return res.end(JSON.stringify({ login: "octo", id: 583231, name: "The Octocat", email: "public@example.com" }));
  if (req.url === "/user/emails" && emails) return res.end(JSON.stringify(emails));
  res.writeHead(404);
  res.end(JSON.stringify({ message: "Not Found", documentation_url: "https://docs.github.com/rest" }));
});
let userUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  userUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/user`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the address a GitHub sign-in names", () => {
  it("is the primary address, verified only when GitHub says so, whatever the public profile shows", async () => {
    emails = [
      { email: "public@example.com", primary: false, verified: true, visibility: "public" },
      { email: "Primary@Example.com", primary: true, verified: false, visibility: "private" },
    ];
    const unverified = await githubProfile(userUrl, "gho_test_token");
    expect(unverified).toMatchObject({ login: "octo", email: "primary@example.com", email_verified: false });
    expect(profileEmail(unverified)).toEqual({ email: "primary@example.com", verified: false });

    emails[1]!.verified = true;
    expect(profileEmail(await githubProfile(userUrl, "gho_test_token"))).toEqual({ email: "primary@example.com", verified: true });
  });

  it("is none when the addresses cannot be read (no user:email scope), rather than the public one unchecked", async () => {
    emails = null;
    const profile = await githubProfile(userUrl, "gho_test_token");
    expect(profile).toMatchObject({ email: null, email_verified: false });
    expect(profileEmail(profile)).toBeNull();
  });

  it("counts Google's email_verified only when it is true", () => {
    expect(profileEmail({ email: "a@example.com", email_verified: true })).toEqual({ email: "a@example.com", verified: true });
    expect(profileEmail({ email: "a@example.com" })).toEqual({ email: "a@example.com", verified: false });
    expect(profileEmail({ email: "a@example.com", email_verified: "true" })).toEqual({ email: "a@example.com", verified: false });
  });
});
