"use client";
import { createContext, useContext, type ReactNode } from "react";

const TimeZoneContext = createContext("UTC");

/** The signed-in user's time zone (their profile), for every time a client component shows. */
export function TimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={timeZone}>{children}</TimeZoneContext.Provider>;
}

export const useTimeZone = () => useContext(TimeZoneContext);
