/** Imports nothing and exits: the cold-start floor of a Deno process (scripts/bench/cold_start.ts). */
