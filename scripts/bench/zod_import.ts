/** Imports zod and exits: scripts/bench/cold_start.ts times it. */
import { z } from "zod";

if (typeof z.object !== "function") Deno.exit(1);
