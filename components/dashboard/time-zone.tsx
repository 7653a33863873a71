"use client";
import { createContext, useContext, type ReactNode } from "react";
import { DEFAULT_CLOCK, type MemberClock } from "./format";

const ClockContext = createContext<MemberClock>(DEFAULT_CLOCK);

/**
 * The signed-in member's zone and locale (their profile), for every date a client component shows. The layout reads
 * them on the server and hands the same values down, so server and browser render identical text.
 */
export function MemberClockProvider({ clock, children }: { clock: MemberClock; children: ReactNode }) {
  return <ClockContext.Provider value={clock}>{children}</ClockContext.Provider>;
}

export const useMemberClock = () => useContext(ClockContext);
