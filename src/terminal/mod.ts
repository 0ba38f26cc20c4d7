export {
  type AwaitingInput,
  DEFAULT_PROMPT_IDLE_MS,
  detectAwaitingInput,
  type InputSignals,
  isSecretInput,
} from "./awaiting_input.ts";
export { encodeKey, encodeKeys, KEY_NAMES, type KeyModes } from "./keys.ts";
export { plainText, PlainTextView } from "./plain_text_view.ts";
export { sanitizeText } from "./sanitize_text.ts";
export { type ScreenOptions, type ScreenSnapshot, TerminalScreen } from "./terminal_screen.ts";
export { SecretInputs, TTY_INPUT_SECRET, type TypedSecret } from "./secret_inputs.ts";
export { chooseView, type TerminalView } from "./choose_view.ts";
