import { ALWAYS_DELIVERED, type EventType } from "@/lib/events/types";

/** Whether an endpoint with this subscription receives events of this kind (`test` always). */
export function endpointSubscribes(endpoint: { subscribesAll: boolean; events: string[] }, type: EventType): boolean {
  return ALWAYS_DELIVERED.has(type) || endpoint.subscribesAll || endpoint.events.includes(type);
}
