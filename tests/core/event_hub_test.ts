import assert from "node:assert/strict";
import { EventHub } from "../../src/core/event_hub.ts";

Deno.test("event hub: every subscriber hears each event, a throwing one does not stop the rest", () => {
  const hub = new EventHub<number>();
  const heard: string[] = [];
  hub.subscribe((n) => heard.push(`a${n}`));
  hub.subscribe(() => {
    throw new Error("broken session");
  });
  const unsubscribe = hub.subscribe((n) => heard.push(`c${n}`));
  hub.emit(1);
  unsubscribe();
  unsubscribe();
  hub.emit(2);
  assert.deepEqual(heard, ["a1", "c1", "a2"]);
  assert.equal(hub.size, 2);
});

Deno.test("event hub: one function subscribed twice is two subscriptions, each undone alone", () => {
  const hub = new EventHub<string>();
  const heard: string[] = [];
  const listener = (event: string) => heard.push(event);
  const first = hub.subscribe(listener);
  hub.subscribe(listener);
  hub.emit("x");
  first();
  hub.emit("y");
  assert.deepEqual(heard, ["x", "x", "y"]);
});
