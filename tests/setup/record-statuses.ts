// Runs in every test process before its tests: records the statuses our server answers
// (see tests/helpers/observed-statuses.ts).
import { inject } from "vitest";
import { recordStatuses } from "../helpers/observed-statuses";

recordStatuses(inject("observedStatusesDir"));
