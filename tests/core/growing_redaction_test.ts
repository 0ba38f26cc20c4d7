import assert from "node:assert/strict";
import { GrowingRedaction } from "../../src/core/growing_redaction.ts";
import { secretRedaction } from "../../src/policy/secret_redaction.ts";

const build = secretRedaction({ API_TOKEN: "token-0123456789" }, /TOKEN/);

Deno.test("an added secret is redacted from then on, in texts and streams, with the fixed ones", () => {
  const redaction = new GrowingRedaction((added) => build({}, added));
  const stream = redaction.stream();
  assert.equal(stream.push("pw? "), "pw? ");
  redaction.add({ name: "TTY_INPUT", value: "s3" });
  assert.equal(
    stream.push("got s3 and token-0123456789") + stream.flush(),
    "got [REDACTED:TTY_INPUT] and [REDACTED:API_TOKEN]",
  );
  assert.equal(redaction.text("s3 again"), "[REDACTED:TTY_INPUT] again");
});

Deno.test("a stream switching secrets releases what it held under the old ones first", () => {
  const redaction = new GrowingRedaction((added) => build({}, added));
  const stream = redaction.stream();
  // "token-01" could still grow into the server's secret, so the stream holds it back.
  assert.equal(stream.push("a token-01"), "a ");
  redaction.add({ name: "TTY_INPUT", value: "hunter2" });
  assert.equal(stream.push(" hunter2"), "token-01 [REDACTED:TTY_INPUT]");
  assert.equal(stream.flush(), "");
});

Deno.test("added secrets are redacted whatever their length, even with redaction off", () => {
  const off = secretRedaction({ API_TOKEN: "token-0123456789" }, null);
  const redaction = new GrowingRedaction((added) => off({}, added));
  assert.equal(redaction.text("token-0123456789 pin 42"), "token-0123456789 pin 42");
  redaction.add({ name: "TTY_INPUT", value: "42" });
  redaction.add({ name: "TTY_INPUT", value: "42" });
  assert.equal(
    redaction.text("token-0123456789 pin 42"),
    "token-0123456789 pin [REDACTED:TTY_INPUT]",
  );
});
